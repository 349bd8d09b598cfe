package account

import (
	"context"
	"fmt"
	"time"

	"example.test/monolith/internal/platform/db"
	"example.test/monolith/internal/repository"
	"example.test/monolith/internal/repository/pgrepo"
)

// Ledger applies the billing rules on top of a LedgerStore.
type Ledger struct {
	store repository.LedgerStore
}

// NewLedger returns the ledger backed by Postgres.
func NewLedger(d *db.DB) *Ledger { return &Ledger{store: pgrepo.NewLedger(d)} }

// NewLedgerWithStore returns a ledger on an arbitrary store.
func NewLedgerWithStore(store repository.LedgerStore) *Ledger { return &Ledger{store: store} }

// Balance returns the balance in currency.
func (l *Ledger) Balance(ctx context.Context, accountID, currency string) (int64, error) {
	return l.store.Balance(ctx, accountID, currency)
}

// Invoices pages through invoices.
func (l *Ledger) Invoices(ctx context.Context, accountID string, limit int, after string) ([]repository.Invoice, error) {
	if limit <= 0 || limit > 200 {
		limit = 50
	}
	return l.store.ListInvoices(ctx, accountID, limit, after)
}

// ChargeExists reports whether a charge with this idempotency key was already booked.
func (l *Ledger) ChargeExists(idempotencyKey string) (bool, error) {
	if idempotencyKey == "" {
		return false, nil
	}
	return l.store.ChargeExists(idempotencyKey)
}

// Charge books a charge.
func (l *Ledger) Charge(ctx context.Context, accountID string, amountMinor int64, currency, key string) (string, int64, error) {
	if amountMinor <= 0 {
		return "", 0, fmt.Errorf("%w: amount must be positive", ErrInvalid)
	}
	return l.store.Charge(ctx, accountID, amountMinor, currency, key)
}

// Statement returns the ledger entries of one calendar year.
func (l *Ledger) Statement(ctx context.Context, accountID string, year int) ([]repository.LedgerEntry, error) {
	from := time.Date(year, time.January, 1, 0, 0, 0, 0, time.UTC)
	return l.store.Entries(ctx, accountID, from, from.AddDate(1, 0, 0))
}
