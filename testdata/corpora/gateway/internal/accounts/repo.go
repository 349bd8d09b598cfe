package accounts

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

var errNotFound = errors.New("accounts: not found")

// Account is a row of the accounts table.
type Account struct {
	ID           string
	Email        string
	Plan         string
	RateLimitRPS int32
	Disabled     bool
}

// SessionRow is a row of the sessions table.
type SessionRow struct {
	ID       string
	ClientIP string
	LastSeen time.Time
}

// Repo is the accounts repository.
type Repo struct {
	db *sql.DB
}

// NewRepo returns a repository over db.
func NewRepo(db *sql.DB) *Repo { return &Repo{db: db} }

// Get loads one account.
func (r *Repo) Get(ctx context.Context, id string) (*Account, error) {
	var a Account
	err := r.db.QueryRowContext(ctx,
		`SELECT id, email, plan, rate_limit_rps, disabled FROM accounts WHERE id = $1 AND deleted_at IS NULL`, id,
	).Scan(&a.ID, &a.Email, &a.Plan, &a.RateLimitRPS, &a.Disabled)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("accounts: get %s: %w", id, err)
	}
	return &a, nil
}

// InsertKey stores a new API key hash for account.
func (r *Repo) InsertKey(ctx context.Context, account, keyID, hash string) error {
	_, err := r.db.ExecContext(ctx, `INSERT INTO api_keys (id, account_id, key_hash) VALUES ($1, $2, $3)`, keyID, account, hash)
	return err
}

// RevokeKeys revokes every key of account except keep.
func (r *Repo) RevokeKeys(ctx context.Context, account, keep string) error {
	_, err := r.db.ExecContext(ctx, `UPDATE api_keys SET revoked_at = now() WHERE account_id = $1 AND id <> $2 AND revoked_at IS NULL`, account, keep)
	return err
}

// RevokeSessions ends every session of account.
func (r *Repo) RevokeSessions(ctx context.Context, account string) error {
	_, err := r.db.ExecContext(ctx, `DELETE FROM sessions WHERE account_id = $1`, account)
	return err
}

// SoftDelete marks account deleted.
func (r *Repo) SoftDelete(ctx context.Context, account string) error {
	_, err := r.db.ExecContext(ctx, `UPDATE accounts SET deleted_at = now() WHERE id = $1`, account)
	return err
}

// Sessions lists the sessions of account seen after since.
func (r *Repo) Sessions(ctx context.Context, account string, since time.Time) ([]SessionRow, error) {
	rows, err := r.db.QueryContext(ctx,
		`SELECT id, client_ip, last_seen FROM sessions WHERE account_id = $1 AND last_seen > $2 ORDER BY last_seen`, account, since)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []SessionRow
	for rows.Next() {
		var s SessionRow
		if err := rows.Scan(&s.ID, &s.ClientIP, &s.LastSeen); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}
