// Package pgrepo implements the repository interfaces on Postgres.
package pgrepo

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/lib/pq"

	"example.test/monolith/internal/platform/db"
	"example.test/monolith/internal/repository"
)

// Accounts implements repository.AccountStore.
type Accounts struct {
	db           *db.DB
	writeTimeout time.Duration
}

var _ repository.AccountStore = (*Accounts)(nil)

// NewAccounts returns the Postgres account store.
func NewAccounts(d *db.DB) *Accounts { return &Accounts{db: d, writeTimeout: 3 * time.Second} }

func (r *Accounts) GetAccount(ctx context.Context, id string) (*repository.Account, error) {
	var a repository.Account
	var closed sql.NullTime
	err := r.db.SQL.QueryRowContext(ctx,
		`SELECT id, email, display_name, locale, tier, updated_at, closed_at FROM accounts WHERE id = $1`, id,
	).Scan(&a.ID, &a.Email, &a.DisplayName, &a.Locale, &a.Tier, &a.UpdatedAt, &closed)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, repository.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	if closed.Valid {
		a.ClosedAt = &closed.Time
	}
	return &a, nil
}

func (r *Accounts) UpdateAccount(ctx context.Context, a *repository.Account) error {
	res, err := r.db.SQL.ExecContext(ctx,
		`UPDATE accounts SET display_name = $2, locale = $3, updated_at = now() WHERE id = $1 AND updated_at = $4`,
		a.ID, a.DisplayName, a.Locale, a.UpdatedAt)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return repository.ErrConflict
	}
	return nil
}

func (r *Accounts) CloseAccount(ctx context.Context, id, reason string) error {
	return r.db.WithTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE accounts SET closed_at = now(), close_reason = $2 WHERE id = $1`, id, reason); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE account_id = $1`, id)
		return err
	})
}

func (r *Accounts) ListSessions(ctx context.Context, accountID string) ([]repository.Session, error) {
	var out []repository.Session
	err := r.db.QueryRows(ctx,
		`SELECT id, account_id, user_agent, ip, last_seen FROM sessions WHERE account_id = $1 ORDER BY last_seen DESC`,
		func(rows *sql.Rows) error {
			var s repository.Session
			if err := rows.Scan(&s.ID, &s.AccountID, &s.UserAgent, &s.IP, &s.LastSeen); err != nil {
				return err
			}
			out = append(out, s)
			return nil
		}, accountID)
	return out, err
}

func (r *Accounts) TouchSessions(ctx context.Context, accountID string, ids []string) error {
	_, err := r.db.SQL.ExecContext(ctx,
		`UPDATE sessions SET last_seen = now() WHERE account_id = $1 AND id = ANY($2)`, accountID, pq.Array(ids))
	return err
}

func (r *Accounts) DeleteSession(ctx context.Context, accountID, sessionID string) (bool, error) {
	wctx, cancel := context.WithTimeout(context.Background(), r.writeTimeout)
	defer cancel()
	res, err := r.db.SQL.ExecContext(wctx, `DELETE FROM sessions WHERE account_id = $1 AND id = $2`, accountID, sessionID)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

func (r *Accounts) UpsertContact(ctx context.Context, c repository.Contact) error {
	_, err := r.db.SQL.ExecContext(ctx,
		`INSERT INTO contacts (account_id, email, name) VALUES ($1, $2, $3)
		 ON CONFLICT (account_id, email) DO UPDATE SET name = EXCLUDED.name`,
		c.AccountID, c.Email, c.Name)
	return err
}

func (r *Accounts) RebuildContactIndex(ctx context.Context) error {
	_, err := r.db.SQL.ExecContext(ctx, `REFRESH MATERIALIZED VIEW CONCURRENTLY contact_search`)
	return err
}
