package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"iter"
)

// Account is a ledger account.
type Account struct {
	ID       string
	Currency string
	Balance  int64
	Owner    string
}

// Posting is one side of a transfer.
type Posting struct {
	AccountID string
	Amount    int64
	Currency  string
	At        int64
}

// Balance returns the current balance and currency of an account.
func (s *Store) Balance(ctx context.Context, accountID string) (int64, string, error) {
	var bal int64
	var cur string
	row := s.db.QueryRow(`SELECT balance, currency FROM accounts WHERE id = ?`, accountID) // BUG: ctxless — B1: the helper given a ctx queries without it
	if err := row.Scan(&bal, &cur); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return 0, "", ErrNotFound
		}
		return 0, "", fmt.Errorf("balance %s: %w", accountID, err)
	}
	return bal, cur, nil
}

// LookupAccount loads an account by id.
func (s *Store) LookupAccount(ctx context.Context, id string) (Account, error) {
	var a Account
	err := s.db.QueryRowContext(ctx,
		`SELECT id, currency, balance, owner FROM accounts WHERE id = ?`, id).
		Scan(&a.ID, &a.Currency, &a.Balance, &a.Owner)
	if errors.Is(err, sql.ErrNoRows) {
		return Account{}, ErrNotFound
	}
	if err != nil {
		return Account{}, fmt.Errorf("lookup %s: %w", id, err)
	}
	return a, nil
}

// Postings streams the postings of an account since the given unix time.
// The iterator stops at the first error, which is yielded with a zero Posting.
func (s *Store) Postings(ctx context.Context, accountID string, since int64, limit int) iter.Seq2[Posting, error] {
	return func(yield func(Posting, error) bool) {
		rows, err := s.db.QueryContext(ctx,
			`SELECT account_id, amount, currency, at FROM postings WHERE account_id = ? AND at >= ? ORDER BY id LIMIT ?`,
			accountID, since, limit)
		if err != nil {
			yield(Posting{}, fmt.Errorf("postings: %w", err))
			return
		}
		defer rows.Close()
		for rows.Next() {
			var p Posting
			if err := rows.Scan(&p.AccountID, &p.Amount, &p.Currency, &p.At); err != nil {
				yield(Posting{}, err)
				return
			}
			if !yield(p, nil) {
				return
			}
		}
		if err := rows.Err(); err != nil {
			yield(Posting{}, err)
		}
	}
}

// MonthlyPostings returns all postings of an account for a month. It is
// used by the statement workers and can be slow for busy accounts.
func (s *Store) MonthlyPostings(ctx context.Context, accountID string, from, to int64) ([]Posting, error) {
	rows, err := s.db.QueryContext(ctx,
		`SELECT account_id, amount, currency, at FROM postings WHERE account_id = ? AND at >= ? AND at < ? ORDER BY id`,
		accountID, from, to)
	if err != nil {
		return nil, fmt.Errorf("monthly postings: %w", err)
	}
	defer rows.Close()
	var out []Posting
	for rows.Next() {
		var p Posting
		if err := rows.Scan(&p.AccountID, &p.Amount, &p.Currency, &p.At); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}
