package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"iter"
	"strconv"
	"time"
)

// PG is the PostgreSQL implementation of Repository.
type PG struct {
	db           *sql.DB
	archiveAfter time.Duration
}

// NewPG wraps an open database handle.
func NewPG(db *sql.DB) *PG {
	return &PG{db: db, archiveAfter: 30 * 24 * time.Hour}
}

var _ Repository = (*PG)(nil)

const schema = `
CREATE TABLE IF NOT EXISTS trips (
	id TEXT PRIMARY KEY, vehicle_id TEXT NOT NULL, driver_id TEXT NOT NULL, state INT NOT NULL,
	pickup_lat DOUBLE PRECISION, pickup_lng DOUBLE PRECISION, dropoff_lat DOUBLE PRECISION, dropoff_lng DOUBLE PRECISION,
	pickup_address TEXT, created_at TIMESTAMPTZ NOT NULL DEFAULT now(), updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS trips_archive (LIKE trips);
CREATE TABLE IF NOT EXISTS waypoints (trip_id TEXT NOT NULL, lat DOUBLE PRECISION, lng DOUBLE PRECISION, recorded_at TIMESTAMPTZ);
CREATE TABLE IF NOT EXISTS audit_log (at TIMESTAMPTZ NOT NULL, actor TEXT, action TEXT, subject TEXT, detail TEXT);
`

// Migrate creates the schema. It runs once at start-up, before the listeners open.
func (p *PG) Migrate() error {
	if _, err := p.db.Exec(schema); err != nil { // OK
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// GetTrip loads one trip by id.
func (p *PG) GetTrip(ctx context.Context, id string) (*Trip, error) {
	if ctx == nil {
		ctx = context.Background() // OK
	}
	var t Trip
	err := p.db.QueryRowContext(ctx, `
		SELECT id, vehicle_id, driver_id, state, pickup_lat, pickup_lng, dropoff_lat, dropoff_lng,
		       COALESCE(pickup_address, ''), created_at, updated_at
		FROM trips WHERE id = $1`, id).
		Scan(&t.ID, &t.VehicleID, &t.DriverID, &t.State, &t.Pickup.Lat, &t.Pickup.Lng,
			&t.Dropoff.Lat, &t.Dropoff.Lng, &t.PickupAddress, &t.CreatedAt, &t.UpdatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("get trip %s: %w", id, err)
	}
	return &t, nil
}

// CreateTrip inserts a new trip.
func (p *PG) CreateTrip(ctx context.Context, t *Trip) error {
	_, err := p.db.ExecContext(ctx, `
		INSERT INTO trips (id, vehicle_id, driver_id, state, pickup_lat, pickup_lng, dropoff_lat, dropoff_lng, pickup_address)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		t.ID, t.VehicleID, t.DriverID, t.State, t.Pickup.Lat, t.Pickup.Lng, t.Dropoff.Lat, t.Dropoff.Lng, t.PickupAddress)
	if err != nil {
		return fmt.Errorf("create trip: %w", err)
	}
	return nil
}

// UpdateTripState moves a trip to a new state.
func (p *PG) UpdateTripState(ctx context.Context, id string, st TripState) error {
	res, err := p.db.ExecContext(ctx, `UPDATE trips SET state = $2, updated_at = now() WHERE id = $1`, id, st)
	if err != nil {
		return fmt.Errorf("update trip %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// AssignDriver sets the driver of a trip.
func (p *PG) AssignDriver(ctx context.Context, tripID, driverID string) error {
	_, err := p.db.ExecContext(ctx, `UPDATE trips SET driver_id = $2, state = $3, updated_at = now() WHERE id = $1`,
		tripID, driverID, StateAssigned)
	return err
}

// ArchiveTrip moves a finished trip and its waypoints to the archive tables.
func (p *PG) ArchiveTrip(_ context.Context, id string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tx, err := p.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck
	if _, err := tx.ExecContext(ctx, `INSERT INTO trips_archive SELECT * FROM trips WHERE id = $1`, id); err != nil {
		return fmt.Errorf("archive trip %s: %w", id, err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM waypoints WHERE trip_id = $1`, id); err != nil {
		return fmt.Errorf("archive waypoints %s: %w", id, err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM trips WHERE id = $1`, id); err != nil {
		return fmt.Errorf("archive trip %s: %w", id, err)
	}
	return tx.Commit()
}

// ListTrips returns one page of a vehicle's trips, newest first.
func (p *PG) ListTrips(ctx context.Context, vehicleID string, limit int, after string) ([]Trip, string, error) {
	if limit <= 0 || limit > 500 {
		limit = 100
	}
	rows, err := p.db.QueryContext(ctx, `
		SELECT id, vehicle_id, driver_id, state, created_at FROM trips
		WHERE vehicle_id = $1 AND ($2 = '' OR id < $2) ORDER BY id DESC LIMIT $3`, vehicleID, after, limit)
	if err != nil {
		return nil, "", err
	}
	defer rows.Close()
	var out []Trip
	for rows.Next() {
		var t Trip
		if err := rows.Scan(&t.ID, &t.VehicleID, &t.DriverID, &t.State, &t.CreatedAt); err != nil {
			return nil, "", err
		}
		out = append(out, t)
	}
	next := ""
	if len(out) == limit {
		next = out[len(out)-1].ID
	}
	return out, next, rows.Err()
}

// TripsForVehicle streams every trip of a vehicle.
func (p *PG) TripsForVehicle(ctx context.Context, vehicleID string) iter.Seq2[Trip, error] {
	return func(yield func(Trip, error) bool) {
		rows, err := p.db.QueryContext(ctx, `SELECT id, vehicle_id, driver_id, state FROM trips WHERE vehicle_id = $1`, vehicleID)
		if err != nil {
			yield(Trip{}, err)
			return
		}
		defer rows.Close()
		for rows.Next() {
			var t Trip
			if err := rows.Scan(&t.ID, &t.VehicleID, &t.DriverID, &t.State); err != nil {
				yield(Trip{}, err)
				return
			}
			if !yield(t, nil) {
				return
			}
		}
		if err := rows.Err(); err != nil {
			yield(Trip{}, err)
		}
	}
}

// CountTrips counts the trips of a vehicle.
func (p *PG) CountTrips(ctx context.Context, vehicleID string) (int, error) {
	var n int
	err := p.db.QueryRowContext(ctx, `SELECT count(*) FROM trips WHERE vehicle_id = $1`, vehicleID).Scan(&n)
	return n, err
}

// GetDriver loads one driver.
func (p *PG) GetDriver(ctx context.Context, id string) (*Driver, error) {
	var d Driver
	err := p.db.QueryRowContext(ctx, `SELECT id, name, phone, active, COALESCE(vehicle_id, '') FROM drivers WHERE id = $1`, id).
		Scan(&d.ID, &d.Name, &d.Phone, &d.Active, &d.VehicleID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	return &d, err
}

// GetVehicle loads one vehicle.
func (p *PG) GetVehicle(ctx context.Context, id string) (*Vehicle, error) {
	var v Vehicle
	err := p.db.QueryRowContext(ctx, `SELECT id, plate, model, depot, odometer_km FROM vehicles WHERE id = $1`, id).
		Scan(&v.ID, &v.Plate, &v.Model, &v.Depot, &v.Odometer)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	return &v, err
}

// RecordWaypoint appends a position to a trip's track.
func (p *PG) RecordWaypoint(ctx context.Context, wp Waypoint) error {
	_, err := p.db.ExecContext(ctx, `INSERT INTO waypoints (trip_id, lat, lng, recorded_at) VALUES ($1, $2, $3, $4)`,
		wp.TripID, wp.Position.Lat, wp.Position.Lng, wp.RecordedAt)
	return err
}

// SaveOdometer records the odometer reading reported at the end of a trip.
func (p *PG) SaveOdometer(ctx context.Context, vehicleID string, km float64) error {
	_, err := p.db.ExecContext(ctx, `UPDATE vehicles SET odometer_km = GREATEST(odometer_km, $2) WHERE id = $1`,
		vehicleID, strconv.FormatFloat(km, 'f', 1, 64))
	return err
}
