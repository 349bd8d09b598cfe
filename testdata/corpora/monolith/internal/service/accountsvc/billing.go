package accountsvc

import (
	"context"
	"log/slog"

	"example.test/monolith/internal/domain/account"
	"example.test/monolith/internal/repository"
	"example.test/monolith/pkg/legacy"
)

// LedgerCurrency is the currency the ledger books in.
const LedgerCurrency = "EUR"

// ConvertFunc converts an amount between currencies.
type ConvertFunc func(ctx context.Context, amountMinor int64, from, to string) (int64, error)

// Billing serves balance, invoice and charge operations.
type Billing struct {
	ledger   *account.Ledger
	settings *legacy.Client
	convert  ConvertFunc
	log      *slog.Logger
}

// NewBilling returns the billing service. convert is used for charges in a currency other than
// the ledger's.
func NewBilling(ledger *account.Ledger, settings *legacy.Client, convert ConvertFunc, log *slog.Logger) *Billing {
	return &Billing{ledger: ledger, settings: settings, convert: convert, log: log}
}

func (b *Billing) defaultCurrency() string {
	v, err := b.settings.Get("billing.default_currency")
	if err != nil || v == "" {
		return LedgerCurrency
	}
	return v
}

// Balance returns an account's balance; an empty currency means the tenant default.
func (b *Billing) Balance(ctx context.Context, accountID, currency string) (int64, string, error) {
	if currency == "" {
		currency = b.defaultCurrency()
	}
	bal, err := b.ledger.Balance(ctx, accountID, currency)
	return bal, currency, err
}

// Invoices pages through invoices.
func (b *Billing) Invoices(ctx context.Context, accountID string, limit int, after string) ([]repository.Invoice, error) {
	return b.ledger.Invoices(ctx, accountID, limit, after)
}

// AlreadyCharged reports whether the idempotency key was used before.
func (b *Billing) AlreadyCharged(key string) (bool, error) {
	return b.ledger.ChargeExists(key)
}

// Charge books a charge, converting it into the ledger currency first.
func (b *Billing) Charge(ctx context.Context, accountID string, amountMinor int64, currency, key string) (string, int64, error) {
	if currency != "" && currency != LedgerCurrency {
		converted, err := b.convert(ctx, amountMinor, currency, LedgerCurrency)
		if err != nil {
			return "", 0, err
		}
		amountMinor = converted
	}
	return b.ledger.Charge(ctx, accountID, amountMinor, LedgerCurrency, key)
}

// Statements returns one year of ledger entries.
func (b *Billing) Statements(ctx context.Context, accountID string, year int) ([]repository.LedgerEntry, error) {
	return b.ledger.Statement(ctx, accountID, year)
}
