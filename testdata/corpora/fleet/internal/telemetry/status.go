package telemetry

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	telemetryv1 "example.test/fleet/gen/fleet/telemetry/v1"
	"example.test/fleet/internal/store"
)

// GetVehicleStatus returns the live state of one vehicle.
func (s *Server) GetVehicleStatus(ctx context.Context, req *telemetryv1.GetVehicleStatusRequest) (*telemetryv1.VehicleStatus, error) {
	id := req.GetVehicleId()
	if id == "" {
		return nil, status.Error(codes.InvalidArgument, "vehicle_id is required")
	}
	st := &telemetryv1.VehicleStatus{VehicleId: id}
	var lastSeen time.Time
	qctx, cancel := context.WithTimeout(ctx, 800*time.Millisecond) // OK
	defer cancel()
	err := s.db.QueryRowContext(qctx, `
		SELECT lat, lng, speed_kph, fuel_pct, ignition_on, last_seen
		FROM vehicle_state WHERE vehicle_id = $1`, id).
		Scan(&st.Lat, &st.Lng, &st.SpeedKph, &st.FuelPct, &st.IgnitionOn, &lastSeen) // OK
	if errors.Is(err, sql.ErrNoRows) {
		// Not one of ours: the regional cluster may know it.
		return s.relay.Status(ctx, id) // OK
	}
	if err != nil {
		return nil, status.Errorf(codes.Internal, "load vehicle state: %v", err)
	}
	st.LastSeen = timestamppb.New(lastSeen)

	var fw sql.NullString
	if err := s.db.QueryRow(`SELECT version FROM unit_firmware WHERE vehicle_id = $1`, id).Scan(&fw); err == nil && fw.Valid { // BUG: ctxless
		st.Firmware = fw.String
	}
	if p, ok := s.hub.Last(id); ok && p.GetAt().AsTime().After(lastSeen) {
		st.Lat, st.Lng, st.LastSeen = p.GetLat(), p.GetLng(), p.GetAt()
	}
	return st, nil
}

// ReportIncident records an incident raised by a driver or a unit.
func (s *Server) ReportIncident(ctx context.Context, req *telemetryv1.ReportIncidentRequest) (*telemetryv1.ReportIncidentResponse, error) {
	if req.GetVehicleId() == "" || req.GetKind() == "" {
		return nil, status.Error(codes.InvalidArgument, "vehicle_id and kind are required")
	}
	id := newID()
	if _, err := s.db.ExecContext(ctx, `
		INSERT INTO incidents (id, vehicle_id, kind, description, lat, lng, reported_at)
		VALUES ($1, $2, $3, $4, $5, $6, now())`,
		id, req.GetVehicleId(), req.GetKind(), req.GetDescription(), req.GetLat(), req.GetLng()); err != nil { // OK
		return nil, status.Errorf(codes.Internal, "insert incident: %v", err)
	}

	entry := store.AuditEntry{Actor: actorFrom(ctx), Action: "incident.report", Subject: req.GetVehicleId(), Detail: req.GetKind()}
	go s.audit.Write(context.WithoutCancel(ctx), entry)
	// ^BUG: detach

	switch req.GetKind() {
	case "collision":
		body, _ := json.Marshal(map[string]any{"incident": id, "vehicle": req.GetVehicleId(), "lat": req.GetLat(), "lng": req.GetLng()})
		resp, err := http.DefaultClient.Post(s.opts.OpsWebhook, "application/json", bytes.NewReader(body)) // BUG: ctxless
		if err != nil {
			s.log.ErrorContext(ctx, "escalate collision", "incident", id, "err", err) // OK
			break
		}
		resp.Body.Close()
	case "breakdown":
		ctx := context.Background() // BUG: ctxbackground
		if _, err := s.relay.Incident(ctx, req); err != nil {
			return nil, status.Errorf(codes.Unavailable, "forward breakdown: %v", err)
		}
	}
	return &telemetryv1.ReportIncidentResponse{IncidentId: id}, nil
}

// RebootUnit asks the in-vehicle unit to restart.
func (s *Server) RebootUnit(ctx context.Context, req *telemetryv1.RebootUnitRequest) (*telemetryv1.RebootUnitResponse, error) {
	host := req.GetVehicleId() + ".units.fleet.internal"
	addrs, err := net.LookupHost(host) // BUG: ctxless
	if err != nil || len(addrs) == 0 {
		return nil, status.Errorf(codes.Unavailable, "resolve unit %s: %v", host, err)
	}
	conn, err := net.DialTimeout("tcp", net.JoinHostPort(addrs[0], s.opts.ControlPort), 3*time.Second) // BUG: ctxless
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "dial unit: %v", err)
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	cmd := "REBOOT\n"
	if req.GetHard() {
		cmd = "REBOOT HARD\n"
	}
	if _, err := fmt.Fprint(conn, cmd); err != nil {
		return nil, status.Errorf(codes.Unavailable, "send reboot: %v", err)
	}

	// Give the unit a moment to drop its session before we answer, so the
	// dashboard does not show it online for another heartbeat.
	select {
	case <-ctx.Done():
		return nil, status.FromContextError(ctx.Err()).Err()
	case <-time.After(1500 * time.Millisecond):
	}
	if err := s.audit.WriteAfter(ctx, store.AuditEntry{Actor: actorFrom(ctx), Action: "unit.reboot", Subject: req.GetVehicleId()}); err != nil { // OK
		s.log.WarnContext(ctx, "audit reboot", "err", err) // OK
	}
	return &telemetryv1.RebootUnitResponse{Accepted: true}, nil
}
