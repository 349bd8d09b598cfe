package pgrepo

import (
	"context"
	"database/sql"
	"errors"

	"example.test/monolith/internal/platform/db"
	"example.test/monolith/internal/repository"
)

// Preferences implements repository.PreferenceStore.
type Preferences struct{ db *db.DB }

var _ repository.PreferenceStore = (*Preferences)(nil)

// NewPreferences returns the Postgres preference store.
func NewPreferences(d *db.DB) *Preferences { return &Preferences{db: d} }

func (r *Preferences) Get(ctx context.Context, accountID string) (*repository.Preferences, error) {
	p := repository.Preferences{AccountID: accountID}
	err := r.db.SQL.QueryRowContext(ctx,
		`SELECT email, sms, push, quiet_hours FROM notification_prefs WHERE account_id = $1`, accountID,
	).Scan(&p.Email, &p.SMS, &p.Push, &p.QuietHours)
	if errors.Is(err, sql.ErrNoRows) {
		return &repository.Preferences{AccountID: accountID, Email: true}, nil
	}
	return &p, err
}

func (r *Preferences) Put(ctx context.Context, p *repository.Preferences) error {
	_, err := r.db.SQL.ExecContext(ctx,
		`INSERT INTO notification_prefs (account_id, email, sms, push, quiet_hours) VALUES ($1, $2, $3, $4, $5)
		 ON CONFLICT (account_id) DO UPDATE SET email = $2, sms = $3, push = $4, quiet_hours = $5`,
		p.AccountID, p.Email, p.SMS, p.Push, p.QuietHours)
	return err
}
