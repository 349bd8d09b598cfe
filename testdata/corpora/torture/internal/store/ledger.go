package store

import (
	"context"
	"database/sql"
	"errors"
	"iter"
	"time"
)

// Entry is one ledger posting.
type Entry struct {
	ID      string
	Account string
	Amount  int64
	Memo    string
	Posted  time.Time
}

// PostEntry inserts a posting and returns its id. A repeated idempotency key
// returns the original id.
func (r *Repo) PostEntry(ctx context.Context, e Entry, idemKey string) (string, error) {
	var id string
	err := r.db.QueryRowContext(ctx,
		`INSERT INTO entries (account, amount, memo, idem_key) VALUES ($1, $2, $3, NULLIF($4, ''))
		 ON CONFLICT (idem_key) DO UPDATE SET idem_key = EXCLUDED.idem_key RETURNING id`,
		e.Account, e.Amount, e.Memo, idemKey).Scan(&id)
	return id, err
}

// Balance sums an account.
func (r *Repo) Balance(ctx context.Context, account string) (int64, time.Time, error) {
	var sum sql.NullInt64
	var asOf sql.NullTime
	err := r.db.QueryRowContext(ctx, `SELECT sum(amount), max(posted_at) FROM entries WHERE account = $1`, account).
		Scan(&sum, &asOf)
	return sum.Int64, asOf.Time, err
}

// Transfer posts a balanced debit/credit pair in one transaction.
func (r *Repo) Transfer(ctx context.Context, from, to string, amount int64) (debit, credit string, err error) {
	err = r.InTx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx,
			`INSERT INTO entries (account, amount, memo) VALUES ($1, $2, 'transfer') RETURNING id`, from, -amount).
			Scan(&debit); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx,
			`INSERT INTO entries (account, amount, memo) VALUES ($1, $2, 'transfer') RETURNING id`, to, amount).
			Scan(&credit)
	})
	return debit, credit, err
}

// Children lists the direct members of an account group: accounts and
// nested groups (prefixed with "group:").
func (r *Repo) Children(ctx context.Context, group string) ([]string, error) {
	rows, err := r.db.QueryContext(ctx, `SELECT member FROM account_groups WHERE grp = $1 ORDER BY member`, group)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var m string
		if err := rows.Scan(&m); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// Entries iterates over an account's postings since a time.
func (r *Repo) Entries(ctx context.Context, account string, since time.Time) iter.Seq2[Entry, error] {
	return func(yield func(Entry, error) bool) {
		rows, err := r.db.QueryContext(ctx,
			`SELECT id, account, amount, memo, posted_at FROM entries WHERE account = $1 AND posted_at >= $2 ORDER BY posted_at`,
			account, since)
		if err != nil {
			yield(Entry{}, err)
			return
		}
		defer rows.Close()
		for rows.Next() {
			var e Entry
			if err := rows.Scan(&e.ID, &e.Account, &e.Amount, &e.Memo, &e.Posted); err != nil {
				yield(Entry{}, err)
				return
			}
			if !yield(e, nil) {
				return
			}
		}
		if err := rows.Err(); err != nil && !errors.Is(err, context.Canceled) {
			yield(Entry{}, err)
		}
	}
}

// ExpectedBalance reads the balance the upstream books say an account has.
func (r *Repo) ExpectedBalance(ctx context.Context, account string) (int64, error) {
	var v int64
	err := r.db.QueryRowContext(ctx, `SELECT expected FROM reconciliation WHERE account = $1`, account).Scan(&v)
	return v, err
}
