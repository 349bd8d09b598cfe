// Package store holds the persistent state of the fleet: trips, drivers,
// vehicles and the audit trail, plus the outbound notification channels.
package store

import (
	"context"
	"errors"
	"iter"
	"time"
)

// ErrNotFound is returned when a row does not exist.
var ErrNotFound = errors.New("store: not found")

// TripState mirrors dispatch.v1.TripState in the database.
type TripState int

const (
	StatePending TripState = iota + 1
	StateAssigned
	StateEnRoute
	StateCompleted
	StateCancelled
)

// Point is a WGS84 coordinate.
type Point struct {
	Lat, Lng float64
}

// Trip is one row of the trips table.
type Trip struct {
	ID            string
	VehicleID     string
	DriverID      string
	State         TripState
	Pickup        Point
	Dropoff       Point
	PickupAddress string
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// Driver is one row of the drivers table.
type Driver struct {
	ID        string
	Name      string
	Phone     string
	Active    bool
	VehicleID string
}

// Vehicle is one row of the vehicles table.
type Vehicle struct {
	ID       string
	Plate    string
	Model    string
	Depot    string
	Odometer float64
}

// Waypoint is a recorded position along a trip.
type Waypoint struct {
	TripID     string
	Position   Point
	RecordedAt time.Time
}

// Repository is the persistence boundary used by the dispatch and queue code.
type Repository interface {
	GetTrip(ctx context.Context, id string) (*Trip, error)
	CreateTrip(ctx context.Context, t *Trip) error
	UpdateTripState(ctx context.Context, id string, st TripState) error
	AssignDriver(ctx context.Context, tripID, driverID string) error
	ArchiveTrip(ctx context.Context, id string) error
	ListTrips(ctx context.Context, vehicleID string, limit int, after string) ([]Trip, string, error)
	TripsForVehicle(ctx context.Context, vehicleID string) iter.Seq2[Trip, error]
	CountTrips(ctx context.Context, vehicleID string) (int, error)
	GetDriver(ctx context.Context, id string) (*Driver, error)
	GetVehicle(ctx context.Context, id string) (*Vehicle, error)
	RecordWaypoint(ctx context.Context, wp Waypoint) error
	SaveOdometer(ctx context.Context, vehicleID string, km float64) error
}
