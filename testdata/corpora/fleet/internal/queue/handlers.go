package queue

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	telemetryv1 "example.test/fleet/gen/fleet/telemetry/v1"
	"example.test/fleet/internal/store"
)

// TripHandlers consumes trip and vehicle lifecycle events.
type TripHandlers struct {
	baseCtx   context.Context
	repo      store.Repository
	audit     *store.AuditLog
	telemetry telemetryv1.TelemetryServiceClient
	db        *sql.DB
	log       *slog.Logger
}

// NewTripHandlers builds the handlers. ctx is the lifetime of the consumer process.
func NewTripHandlers(ctx context.Context, repo store.Repository, audit *store.AuditLog, tel telemetryv1.TelemetryServiceClient, db *sql.DB, log *slog.Logger) *TripHandlers {
	return &TripHandlers{baseCtx: ctx, repo: repo, audit: audit, telemetry: tel, db: db, log: log}
}

// Register installs the handlers on c.
func (h *TripHandlers) Register(c *Consumer) {
	c.Handle("trip.completed", h.TripCompleted)
	c.Handle("vehicle.offline", h.VehicleOffline)
	c.Handle("incident.reported", h.IncidentReported)
	c.Handle("odometer.sync", h.OdometerSync)
	c.Handle("vehicle.decommissioned", func(ctx context.Context, msg *Message) error {
		return ReleaseReservations(ctx, h.db, h.audit, msg)
	})
}

type tripCompleted struct {
	TripID     string  `json:"trip_id"`
	VehicleID  string  `json:"vehicle_id"`
	OdometerKm float64 `json:"odometer_km"`
}

// TripCompleted records the final odometer reading and archives the trip.
//
//deadlinelint:scope
func (h *TripHandlers) TripCompleted(ctx context.Context, msg *Message) error {
	var ev tripCompleted
	if err := json.Unmarshal(msg.Body, &ev); err != nil {
		h.log.WarnContext(ctx, "drop malformed trip.completed", "id", msg.ID, "err", err) // OK
		return nil
	}
	km := ev.OdometerKm
	if km == 0 {
		st, err := h.telemetry.GetVehicleStatus(ctx, &telemetryv1.GetVehicleStatusRequest{VehicleId: ev.VehicleID}) // OK
		if err != nil {
			return fmt.Errorf("vehicle status: %w", err)
		}
		if st.GetIgnitionOn() {
			return fmt.Errorf("vehicle %s still running, retry later", ev.VehicleID)
		}
	}
	var err error
	for attempt := 1; ; attempt++ {
		err = h.repo.SaveOdometer(ctx, ev.VehicleID, km) // OK
		if err == nil || attempt == 3 {
			break
		}
		time.Sleep(time.Duration(attempt) * 250 * time.Millisecond) // BUG: ctxless
	}
	if err != nil {
		return err
	}
	return h.repo.ArchiveTrip(ctx, ev.TripID) // BUG: ctxbackground
}

type vehicleOffline struct {
	VehicleID string    `json:"vehicle_id"`
	LastSeen  time.Time `json:"last_seen"`
}

// VehicleOffline puts the en-route trips of a vehicle that dropped off the network back to pending.
//
//deadlinelint:scope
func (h *TripHandlers) VehicleOffline(ctx context.Context, msg *Message) error {
	if ctx == nil {
		ctx = context.Background() // OK
	}
	var ev vehicleOffline
	if err := json.Unmarshal(msg.Body, &ev); err != nil {
		return nil
	}
	trips, _, err := h.repo.ListTrips(ctx, ev.VehicleID, 20, "") // OK
	if err != nil {
		return err
	}
	for _, t := range trips {
		if t.State != store.StateEnRoute {
			continue
		}
		if err := h.repo.UpdateTripState(ctx, t.ID, store.StatePending); err != nil { // OK
			return err
		}
		// the audit row is the only record that the trip was bounced back; keep it even past the message deadline
		actx := context.WithoutCancel(ctx) // BUG: detach
		if err := h.audit.Write(actx, store.AuditEntry{Actor: "bus", Action: "trip.requeue", Subject: t.ID,
			Detail: "vehicle offline since " + ev.LastSeen.Format(time.RFC3339)}); err != nil {
			h.log.WarnContext(ctx, "audit requeue", "trip", t.ID, "err", err)
		}
	}
	return nil
}

type incidentReported struct {
	ID        string  `json:"id"`
	VehicleID string  `json:"vehicle_id"`
	Kind      string  `json:"kind"`
	Severity  int     `json:"severity"`
	Lat       float64 `json:"lat"`
	Lng       float64 `json:"lng"`
}

// IncidentReported escalates severe incidents to the regional telemetry cluster.
//
//deadlinelint:scope
func (h *TripHandlers) IncidentReported(ctx context.Context, msg *Message) error {
	var ev incidentReported
	if err := json.Unmarshal(msg.Body, &ev); err != nil {
		return nil
	}
	if err := h.audit.Write(h.baseCtx, store.AuditEntry{Actor: "bus", Action: "incident.received", Subject: ev.ID}); err != nil { // BUG: ctxflow
		return err
	}
	if ev.Severity < 3 {
		return nil
	}
	ictx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // BUG: ctxbackground
	defer cancel()
	_, err := h.telemetry.ReportIncident(ictx, &telemetryv1.ReportIncidentRequest{
		VehicleId: ev.VehicleID, Kind: ev.Kind, Lat: ev.Lat, Lng: ev.Lng,
		Description: fmt.Sprintf("escalated from bus incident %s (severity %d)", ev.ID, ev.Severity),
	})
	return err
}

type odometerReading struct {
	VehicleID string  `json:"vehicle_id"`
	Km        float64 `json:"km"`
}

// OdometerSync reconciles the odometer readings pushed nightly by the maintenance system.
// It is a bulk job that must run to the end once started, so it is not tied to the message deadline.
func (h *TripHandlers) OdometerSync(ctx context.Context, msg *Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var readings []odometerReading
	if err := json.Unmarshal(msg.Body, &readings); err != nil {
		return nil
	}
	wctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // OK
	defer cancel()
	failed := 0
	for _, r := range readings {
		if err := h.repo.SaveOdometer(wctx, r.VehicleID, r.Km); err != nil { // OK
			failed++
		}
		time.Sleep(5 * time.Millisecond) // OK
	}
	if failed > 0 {
		return fmt.Errorf("odometer sync: %d of %d readings failed", failed, len(readings))
	}
	return nil
}

// ReleaseReservations frees the charging slots held by a decommissioned vehicle.
//
//deadlinelint:scope
func ReleaseReservations(ctx context.Context, db *sql.DB, audit *store.AuditLog, msg *Message) error {
	vehicleID := string(msg.Body)
	res, err := db.Exec(`UPDATE charging_slots SET held_by = NULL WHERE held_by = $1`, vehicleID) // BUG: ctxless
	if err != nil {
		return err
	}
	n, _ := res.RowsAffected()
	if n == 0 {
		return nil
	}
	entry := store.AuditEntry{Actor: "bus", Action: "slots.release", Subject: vehicleID, Detail: fmt.Sprintf("%d slots", n)}
	// drivers see the freed slots at once, so the audit row has to follow even past the message deadline
	dctx := context.WithoutCancel(ctx) // BUG: detach
	tctx, cancel := context.WithTimeout(dctx, 2*time.Second)
	defer cancel()
	if err := audit.Write(tctx, entry); err != nil {
		return audit.Write(dctx, entry)
	}
	return nil
}
