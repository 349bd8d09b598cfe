// Package tripstore keeps ride bookings, advisory locks and the outbox in Postgres.
package tripstore

import (
	"context"
	"database/sql"
	"errors"
	"iter"
	"time"
)

// Ride is one booked seat on a shared shuttle trip.
type Ride struct {
	ID        string
	TripID    string
	SeatID    string
	RiderID   string
	State     string
	FareCents int64
	UpdatedAt time.Time
}

// ErrNotFound is returned when no ride has the id.
var ErrNotFound = errors.New("tripstore: ride not found")

const rideColumns = `id, trip_id, seat_id, rider_id, state, fare_cents, updated_at`

// Store is the rides table and its outbox.
type Store struct {
	db *sql.DB
}

// New wraps an open database.
func New(db *sql.DB) *Store { return &Store{db: db} }

// DB returns the underlying pool, for the few statements that need it.
func (s *Store) DB() *sql.DB { return s.db }

func scanRide(row interface{ Scan(...any) error }) (Ride, error) {
	var r Ride
	err := row.Scan(&r.ID, &r.TripID, &r.SeatID, &r.RiderID, &r.State, &r.FareCents, &r.UpdatedAt)
	return r, err
}

// Load reads one ride.
func (s *Store) Load(ctx context.Context, id string) (Ride, error) {
	r, err := scanRide(s.db.QueryRowContext(ctx, `SELECT `+rideColumns+` FROM rides WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Ride{}, ErrNotFound
	}
	return r, err
}

// Save inserts or updates a ride.
func (s *Store) Save(ctx context.Context, r Ride) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO rides (`+rideColumns+`) VALUES ($1, $2, $3, $4, $5, $6, now())
		ON CONFLICT (id) DO UPDATE SET seat_id = $3, rider_id = $4, state = $5, fare_cents = $6, updated_at = now()`,
		r.ID, r.TripID, r.SeatID, r.RiderID, r.State, r.FareCents)
	return err
}

// SetState moves a ride to a new state.
func (s *Store) SetState(ctx context.Context, id, state string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE rides SET state = $2, updated_at = now() WHERE id = $1`, id, state)
	return err
}

// ByTrip lists the rides of a trip.
func (s *Store) ByTrip(ctx context.Context, tripID string) ([]Ride, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+rideColumns+` FROM rides WHERE trip_id = $1 ORDER BY seat_id`, tripID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Ride
	for rows.Next() {
		r, err := scanRide(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Lock takes the advisory lock of a ride for the session.
func (s *Store) Lock(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(ctx, `SELECT pg_advisory_lock(hashtext($1))`, id)
	return err
}

// Unlock releases the advisory lock taken by Lock.
func (s *Store) Unlock(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(ctx, `SELECT pg_advisory_unlock(hashtext($1))`, id)
	return err
}

// Append writes an outbox row that the relay publishes later.
func (s *Store) Append(ctx context.Context, kind, id string) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO outbox (kind, ride_id, created_at) VALUES ($1, $2, now())`, kind, id)
	return err
}

// Expired yields the held rides whose hold ran out before cutoff, querying with ctx.
func (s *Store) Expired(ctx context.Context, cutoff time.Time) iter.Seq2[Ride, error] {
	return func(yield func(Ride, error) bool) {
		rows, err := s.db.QueryContext(ctx, `SELECT `+rideColumns+` FROM rides WHERE state = 'held' AND updated_at < $1`, cutoff)
		if err != nil {
			yield(Ride{}, err)
			return
		}
		defer rows.Close()
		for rows.Next() {
			r, err := scanRide(rows)
			if !yield(r, err) || err != nil {
				return
			}
		}
	}
}

// Stale yields the rides nobody touched for a day. It is meant for the nightly sweep.
func (s *Store) Stale() iter.Seq[Ride] {
	return func(yield func(Ride) bool) {
		rows, err := s.db.QueryContext(context.Background(), `SELECT `+rideColumns+` FROM rides WHERE updated_at < now() - interval '1 day'`)
		if err != nil {
			return
		}
		defer rows.Close()
		for rows.Next() {
			r, err := scanRide(rows)
			if err != nil || !yield(r) {
				return
			}
		}
	}
}
