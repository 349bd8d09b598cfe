// Package store is the newer repository layer. Only members moved here so far.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"example.test/legacy/internal/db"
)

// PG is the Postgres member store.
type PG struct {
	db *sql.DB
}

// NewPG returns a store over database.
func NewPG(database *sql.DB) *PG { return &PG{db: database} }

// Load returns one member.
func (p *PG) Load(ctx context.Context, id string) (*db.MemberRow, error) {
	m := &db.MemberRow{}
	err := p.db.QueryRowContext(ctx,
		`SELECT id, email, name, tier, points, coalesce(partner_code, ''), enrolled_at, status
		   FROM members WHERE id = $1`, id).
		Scan(&m.ID, &m.Email, &m.Name, &m.Tier, &m.Points, &m.PartnerCode, &m.EnrolledAt, &m.Status)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, db.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("store: load %s: %w", id, err)
	}
	return m, nil
}

// SetStatus changes a member's status (active, merged, closed).
func (p *PG) SetStatus(ctx context.Context, id, status string) error {
	res, err := p.db.ExecContext(context.TODO(), `UPDATE members SET status = $2, updated_at = now() WHERE id = $1`, id, status)
	if err != nil {
		return fmt.Errorf("store: set status %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return db.ErrNotFound
	}
	return nil
}
