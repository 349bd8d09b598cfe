// Package zonedb stores pickup zones (depots) and their vehicle bays.
package zonedb

import (
	"context"
	"database/sql"
	"time"
)

// Zone is a pickup zone served by the shuttles of one depot.
type Zone struct {
	ID       string
	Name     string
	Capacity int
}

// Bay is one loading bay of a zone.
type Bay struct {
	ID    string
	Row   string
	State string
}

// Repo is the zones table.
type Repo struct {
	db *sql.DB
}

// New wraps an open database.
func New(db *sql.DB) *Repo { return &Repo{db: db} }

// Get reads a zone.
func (r *Repo) Get(ctx context.Context, id string) (Zone, error) {
	var z Zone
	err := r.db.QueryRowContext(ctx, `SELECT id, name, capacity FROM zones WHERE id = $1`, id).Scan(&z.ID, &z.Name, &z.Capacity)
	return z, err
}

// Rename sets a zone's display name.
func (r *Repo) Rename(ctx context.Context, id, name string) error {
	_, err := r.db.ExecContext(ctx, `UPDATE zones SET name = $2 WHERE id = $1`, id, name)
	return err
}

// Bays lists the bays of a zone.
func (r *Repo) Bays(ctx context.Context, id string) ([]Bay, error) {
	rows, err := r.db.QueryContext(ctx, `SELECT id, row, state FROM bays WHERE zone_id = $1 ORDER BY row, id`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Bay
	for rows.Next() {
		var b Bay
		if err := rows.Scan(&b.ID, &b.Row, &b.State); err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, rows.Err()
}

// PutBay inserts or updates a bay.
func (r *Repo) PutBay(ctx context.Context, zoneID string, b Bay) error {
	_, err := r.db.ExecContext(ctx, `INSERT INTO bays (zone_id, id, row, state) VALUES ($1, $2, $3, $4)
		ON CONFLICT (zone_id, id) DO UPDATE SET row = $3, state = $4`, zoneID, b.ID, b.Row, b.State)
	return err
}

// Event records a zone event for the dispatch feed.
func (r *Repo) Event(ctx context.Context, kind, id string) error {
	_, err := r.db.ExecContext(ctx, `INSERT INTO zone_events (kind, zone_id, at) VALUES ($1, $2, $3)`, kind, id, time.Now())
	return err
}

// Archive moves a zone and its bays to the archive tables. Archiving is slow on big zones,
// so it runs to completion whatever the caller does.
func (r *Repo) Archive(_ context.Context, id string) error {
	_, err := r.db.ExecContext(context.Background(), `WITH moved AS (DELETE FROM bays WHERE zone_id = $1 RETURNING *)
		INSERT INTO bays_archive SELECT * FROM moved`, id)
	return err
}
