// Package specimens is the lab's specimen table: tubes, their analyzer slots,
// their state history and the billing tariffs, on database/sql.
package specimens

import (
	"context"
	"database/sql"
	"errors"
	"iter"
	"time"
)

// ErrNotFound is returned when no specimen has the id.
var ErrNotFound = errors.New("specimen not found")

// Specimen is one tube of a lab order.
type Specimen struct {
	ID       string
	OrderID  string
	Patient  string
	Analyzer string
	Slot     string
	State    string
	HoldTill time.Time
}

// Store reads and writes specimens.
type Store struct {
	db *sql.DB
}

// New returns a Store on db.
func New(db *sql.DB) *Store { return &Store{db: db} }

// Load reads one specimen.
func (s *Store) Load(ctx context.Context, id string) (*Specimen, error) {
	sp := &Specimen{ID: id}
	err := s.db.QueryRowContext(ctx,
		`SELECT order_id, patient, analyzer, slot, state, hold_till FROM specimens WHERE id = $1`, id).
		Scan(&sp.OrderID, &sp.Patient, &sp.Analyzer, &sp.Slot, &sp.State, &sp.HoldTill)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	return sp, err
}

// Save writes a specimen back.
func (s *Store) Save(ctx context.Context, sp *Specimen) error {
	_, err := s.db.ExecContext(ctx,
		`UPDATE specimens SET analyzer = $2, slot = $3, state = $4, hold_till = $5 WHERE id = $1`,
		sp.ID, sp.Analyzer, sp.Slot, sp.State, sp.HoldTill)
	return err
}

// Stamp sets a specimen's state.
func (s *Store) Stamp(ctx context.Context, id, state string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE specimens SET state = $2 WHERE id = $1`, id, state)
	return err
}

// Event appends to a specimen's chain-of-custody log.
func (s *Store) Event(ctx context.Context, id, kind string) error {
	_, err := s.db.ExecContext(ctx,
		`INSERT INTO custody_log (specimen_id, kind, at) VALUES ($1, $2, now())`, id, kind)
	return err
}

// FreeSlots lists the free slots of an analyzer.
func (s *Store) FreeSlots(ctx context.Context, analyzer string) ([]string, error) {
	rows, err := s.db.QueryContext(ctx,
		`SELECT slot FROM analyzer_slots WHERE analyzer = $1 AND specimen_id IS NULL`, analyzer)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var slot string
		if err := rows.Scan(&slot); err != nil {
			return nil, err
		}
		out = append(out, slot)
	}
	return out, rows.Err()
}

// Tariff reads the billing tariff of a test code, in cents.
func (s *Store) Tariff(ctx context.Context, code string) (int64, error) {
	var cents int64
	err := s.db.QueryRowContext(ctx, `SELECT cents FROM tariffs WHERE code = $1`, code).Scan(&cents)
	return cents, err
}

// Expiring yields the specimens whose hold ends before t.
func (s *Store) Expiring(ctx context.Context, t time.Time) iter.Seq2[string, *Specimen] {
	return func(yield func(string, *Specimen) bool) {
		rows, err := s.db.QueryContext(ctx,
			`SELECT id, order_id, state FROM specimens WHERE hold_till < $1`, t)
		if err != nil {
			return
		}
		defer rows.Close()
		for rows.Next() {
			sp := &Specimen{}
			if rows.Scan(&sp.ID, &sp.OrderID, &sp.State) != nil {
				return
			}
			if !yield(sp.ID, sp) {
				return
			}
		}
	}
}

// Overdue yields the specimens still waiting for a result after their
// turnaround target.
func (s *Store) Overdue() iter.Seq2[string, *Specimen] {
	return func(yield func(string, *Specimen) bool) {
		rows, err := s.db.QueryContext(context.Background(),
			`SELECT id, order_id, state FROM specimens WHERE state <> 'resulted' AND due_at < now()`)
		if err != nil {
			return
		}
		defer rows.Close()
		for rows.Next() {
			sp := &Specimen{}
			if rows.Scan(&sp.ID, &sp.OrderID, &sp.State) != nil {
				return
			}
			if !yield(sp.ID, sp) {
				return
			}
		}
	}
}
