package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Transfer describes a movement of funds between two accounts.
type Transfer struct {
	ID             string
	IdempotencyKey string
	From, To       string
	Amount         int64
	Currency       string
}

// ErrBusy is returned when the database is locked by another writer.
var ErrBusy = errors.New("store: database busy")

// ApplyTransfer debits From and credits To atomically and enqueues an
// outbox event in the same transaction.
func (s *Store) ApplyTransfer(ctx context.Context, t Transfer, event []byte) error {
	tx, err := s.db.Begin() // BUG: ctxless — B10: Begin without the ctx ApplyTransfer is given
	if err != nil {
		return classify(err)
	}
	defer tx.Rollback() //nolint:errcheck // no-op after commit

	var existing string
	err = tx.QueryRowContext(ctx, `SELECT id FROM transfers WHERE idem_key = ?`, t.IdempotencyKey).Scan(&existing)
	switch {
	case err == nil:
		if existing != t.ID {
			return ErrConflict
		}
		return nil // replay of an already applied transfer
	case !errors.Is(err, sql.ErrNoRows):
		return classify(err)
	}

	res, err := tx.ExecContext(ctx,
		`UPDATE accounts SET balance = balance - ? WHERE id = ? AND currency = ? AND balance >= ?`,
		t.Amount, t.From, t.Currency, t.Amount)
	if err != nil {
		return classify(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrInsufficientFunds
	}
	if _, err := tx.ExecContext(ctx,
		`UPDATE accounts SET balance = balance + ? WHERE id = ? AND currency = ?`,
		t.Amount, t.To, t.Currency); err != nil {
		return classify(err)
	}
	now := time.Now().Unix()
	for _, p := range []Posting{{t.From, -t.Amount, t.Currency, now}, {t.To, t.Amount, t.Currency, now}} {
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO postings (transfer_id, account_id, amount, currency, at) VALUES (?, ?, ?, ?, ?)`,
			t.ID, p.AccountID, p.Amount, p.Currency, p.At); err != nil {
			return classify(err)
		}
	}
	if _, err := tx.ExecContext(ctx,
		`INSERT INTO transfers (id, idem_key, status) VALUES (?, ?, 'posted')`, t.ID, t.IdempotencyKey); err != nil {
		return classify(err)
	}
	if _, err := tx.ExecContext(ctx,
		`INSERT INTO outbox (topic, payload) VALUES ('transfer.posted', ?)`, event); err != nil {
		return classify(err)
	}
	return tx.Commit()
}

// AcquireLock takes a named advisory lock for ttl.
func (s *Store) AcquireLock(ctx context.Context, name, holder string, ttl time.Duration) (bool, error) {
	res, err := s.db.ExecContext(ctx,
		`INSERT INTO locks (name, holder, expires) VALUES (?, ?, ?)
		 ON CONFLICT(name) DO UPDATE SET holder = excluded.holder, expires = excluded.expires WHERE locks.expires < ?`,
		name, holder, time.Now().Add(ttl).Unix(), time.Now().Unix())
	if err != nil {
		return false, classify(err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// ReleaseLock drops a lock held by holder.
func (s *Store) ReleaseLock(ctx context.Context, name, holder string) error {
	_, err := s.db.ExecContext(ctx, `DELETE FROM locks WHERE name = ? AND holder = ?`, name, holder)
	return err
}

func classify(err error) error {
	if err == nil {
		return nil
	}
	if strings.Contains(err.Error(), "SQLITE_BUSY") || strings.Contains(err.Error(), "database is locked") {
		return fmt.Errorf("%w: %v", ErrBusy, err)
	}
	return err
}
