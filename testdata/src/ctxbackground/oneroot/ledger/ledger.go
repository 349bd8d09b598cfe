// Package ledger holds helpers that work with root contexts of their own: one decision each,
// however many handlers reach it.
package ledger

import (
	"context"
	"database/sql"
)

type Book struct{ db *sql.DB }

// Balance reads with a root context: one lost deadline, wherever it is called from.
func (b *Book) Balance(account string) (int64, error) { // want Balance:"drops ctx: context.Background\\(\\) at .*/ledger.go:15"
	var cents int64
	err := b.db.QueryRowContext(context.Background(), "SELECT cents FROM balances WHERE account = $1", account).Scan(&cents)
	return cents, err
}

// Settle works with two roots: a first one a reader might take for harmless must not hide
// the second.
func (b *Book) Settle(ctx context.Context, account string) error { // want Settle:"drops ctx: context.TODO\\(\\) at .*/ledger.go:22; context.Background\\(\\) at .*/ledger.go:25"
	if _, err := b.db.ExecContext(context.TODO(), "LOCK balances"); err != nil {
		return err
	}
	_, err := b.db.ExecContext(context.Background(), "UPDATE balances SET settled = true WHERE account = $1", account)
	return err
}

// Audit replaces the ctx on purpose, and says so where it does: the suppression at the root
// is the decision, for every caller in every package.
func (b *Book) Audit(ctx context.Context, account string) error {
	//deadlinelint:ignore ctxbackground the audit row must be written even when the caller gave up
	_, err := b.db.ExecContext(context.Background(), "INSERT INTO audit(account) VALUES ($1)", account)
	return err
}

// Transfer reaches Balance's root and Settle's: the roots it reports are theirs.
func (b *Book) Transfer(ctx context.Context, from, to string) error { // want Transfer:"drops ctx: ledger.Book.Balance: context.Background\\(\\) at .*/ledger.go:15; ledger.Book.Settle: context.TODO"
	if _, err := b.Balance(from); err != nil {
		return err
	}
	if err := b.Audit(ctx, from); err != nil {
		return err
	}
	return b.Settle(ctx, to)
}
