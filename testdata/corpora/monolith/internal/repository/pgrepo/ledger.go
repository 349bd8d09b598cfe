package pgrepo

import (
	"context"
	"database/sql"
	"time"

	"example.test/monolith/internal/platform/db"
	"example.test/monolith/internal/repository"
)

// Ledger implements repository.LedgerStore.
type Ledger struct{ db *db.DB }

var _ repository.LedgerStore = (*Ledger)(nil)

// NewLedger returns the Postgres ledger store.
func NewLedger(d *db.DB) *Ledger { return &Ledger{db: d} }

func (r *Ledger) Balance(ctx context.Context, accountID, currency string) (int64, error) {
	var bal int64
	err := r.db.SQL.QueryRowContext(ctx,
		`SELECT COALESCE(SUM(amount_minor), 0) FROM ledger_entries WHERE account_id = $1 AND currency = $2`,
		accountID, currency).Scan(&bal)
	return bal, err
}

func (r *Ledger) ListInvoices(ctx context.Context, accountID string, limit int, after string) ([]repository.Invoice, error) {
	var out []repository.Invoice
	err := r.db.QueryRows(ctx,
		`SELECT id, account_id, amount_minor, currency, status, issued_at FROM invoices
		 WHERE account_id = $1 AND id > $2 ORDER BY id LIMIT $3`,
		func(rows *sql.Rows) error {
			var in repository.Invoice
			if err := rows.Scan(&in.ID, &in.AccountID, &in.AmountMinor, &in.Currency, &in.Status, &in.IssuedAt); err != nil {
				return err
			}
			out = append(out, in)
			return nil
		}, accountID, after, limit)
	return out, err
}

func (r *Ledger) Charge(ctx context.Context, accountID string, amountMinor int64, currency, key string) (string, int64, error) {
	var id string
	var bal int64
	err := r.db.WithTx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx,
			`INSERT INTO ledger_entries (account_id, amount_minor, currency, memo, idempotency_key)
			 VALUES ($1, $2, $3, 'charge', $4) RETURNING id`,
			accountID, -amountMinor, currency, key).Scan(&id); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx,
			`SELECT COALESCE(SUM(amount_minor), 0) FROM ledger_entries WHERE account_id = $1 AND currency = $2`,
			accountID, currency).Scan(&bal)
	})
	return id, bal, err
}

func (r *Ledger) ChargeExists(key string) (bool, error) {
	return r.db.Exists(`SELECT 1 FROM ledger_entries WHERE idempotency_key = $1`, key)
}

func (r *Ledger) Entries(ctx context.Context, accountID string, from, to time.Time) ([]repository.LedgerEntry, error) {
	var out []repository.LedgerEntry
	err := r.db.QueryRows(ctx,
		`SELECT id, account_id, amount_minor, currency, memo, at FROM ledger_entries
		 WHERE account_id = $1 AND at >= $2 AND at < $3 ORDER BY at`,
		func(rows *sql.Rows) error {
			var e repository.LedgerEntry
			if err := rows.Scan(&e.ID, &e.AccountID, &e.AmountMinor, &e.Currency, &e.Memo, &e.At); err != nil {
				return err
			}
			out = append(out, e)
			return nil
		}, accountID, from, to)
	return out, err
}
