package telemetry

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"

	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	telemetryv1 "example.test/fleet/gen/fleet/telemetry/v1"
)

const ingestBatch = 500

// StreamPositions pushes live positions of the requested vehicles until the caller hangs up.
func (s *Server) StreamPositions(req *telemetryv1.StreamPositionsRequest, stream grpc.ServerStreamingServer[telemetryv1.Position]) error {
	ctx := stream.Context()
	ids := req.GetVehicleIds()
	if len(ids) == 0 {
		return status.Error(codes.InvalidArgument, "at least one vehicle_id is required")
	}
	for _, id := range ids {
		if _, err := s.repo.GetVehicle(s.ctx, id); err != nil { // BUG: ctxflow
			return status.Errorf(codes.NotFound, "vehicle %s: %v", id, err)
		}
	}

	ch, unsubscribe := s.hub.Subscribe(ids)
	defer unsubscribe()
	for _, id := range ids {
		if p, ok := s.hub.Last(id); ok {
			if err := stream.Send(p); err != nil {
				return err
			}
		}
	}
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.ctx.Done(): // OK
			return status.Error(codes.Unavailable, "server shutting down")
		case p := <-ch:
			if err := stream.Send(p); err != nil {
				return err
			}
		}
	}
}

// IngestReadings accepts a stream of sensor readings from a unit and stores them in batches.
func (s *Server) IngestReadings(stream grpc.ClientStreamingServer[telemetryv1.Reading, telemetryv1.IngestSummary]) error {
	ctx := stream.Context()
	var accepted, dropped int64
	seen := make(map[string]time.Time)

	g, gctx := errgroup.WithContext(context.Background()) // BUG: ctxbackground
	g.SetLimit(4)
	flush := func(rs []*telemetryv1.Reading) {
		g.Go(func() error { return s.insertReadings(gctx, rs) })
	}

	batch := make([]*telemetryv1.Reading, 0, ingestBatch)
	for {
		r, err := stream.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if r.GetVehicleId() == "" || r.GetSensor() == "" {
			dropped++
			continue
		}
		accepted++
		if at := r.GetAt().AsTime(); at.After(seen[r.GetVehicleId()]) {
			seen[r.GetVehicleId()] = at
		}
		batch = append(batch, r)
		if len(batch) == ingestBatch {
			flush(batch)
			batch = make([]*telemetryv1.Reading, 0, ingestBatch)
		}
	}
	if len(batch) > 0 {
		flush(batch)
	}
	if err := g.Wait(); err != nil {
		return status.Errorf(codes.Internal, "store readings: %v", err)
	}

	uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	// ^BUG: detach
	defer cancel()
	if err := s.touchVehicles(uctx, seen); err != nil {
		s.log.WarnContext(ctx, "update last seen", "err", err) // OK
	}
	return stream.SendAndClose(&telemetryv1.IngestSummary{Accepted: accepted, Dropped: dropped})
}

// LiveControl is the interactive command channel to one or more units.
func (s *Server) LiveControl(stream grpc.BidiStreamingServer[telemetryv1.ControlMessage, telemetryv1.ControlAck]) error {
	ctx := stream.Context()
	session := newID()
	go s.recordSession(context.TODO(), session, actorFrom(ctx)) // BUG: ctxbackground
	defer func() {
		//deadlinelint:detach the session-closed row is what the ops dashboard keys on, so it must land after the hang-up
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second) // OK
		defer cancel()
		_ = s.closeSession(cctx, session)
	}()

	for {
		msg, err := stream.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		ack := &telemetryv1.ControlAck{VehicleId: msg.GetVehicleId(), Command: msg.GetCommand(), Ok: true}
		switch msg.GetCommand() {
		case "firmware-check":
			resp, err := http.Get(s.opts.OTAURL + "/latest?vehicle=" + url.QueryEscape(msg.GetVehicleId())) // BUG: ctxless
			if err != nil {
				ack.Ok, ack.Detail = false, err.Error()
				break
			}
			ack.Detail = resp.Header.Get("X-Firmware-Version")
			resp.Body.Close()
		case "lock", "unlock", "horn":
			if err := s.sendUnitCommand(ctx, msg.GetVehicleId(), msg.GetCommand()); err != nil { // OK
				ack.Ok, ack.Detail = false, err.Error()
			}
		default:
			ack.Ok, ack.Detail = false, "unknown command"
		}
		if err := stream.Send(ack); err != nil {
			return err
		}
	}
}

func (s *Server) insertReadings(ctx context.Context, rs []*telemetryv1.Reading) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO readings (vehicle_id, sensor, value, at) VALUES ($1, $2, $3, $4)`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, r := range rs {
		if _, err := stmt.ExecContext(ctx, r.GetVehicleId(), r.GetSensor(), r.GetValue(), r.GetAt().AsTime()); err != nil {
			return err
		}
	}
	return tx.Commit()
}

func (s *Server) touchVehicles(ctx context.Context, seen map[string]time.Time) error {
	for id, at := range seen {
		if _, err := s.db.ExecContext(ctx, `UPDATE vehicle_state SET last_seen = GREATEST(last_seen, $2) WHERE vehicle_id = $1`, id, at); err != nil {
			return err
		}
	}
	return nil
}

func (s *Server) recordSession(ctx context.Context, session, actor string) {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO control_sessions (id, actor, opened_at) VALUES ($1, $2, now())`, session, actor); err != nil {
		s.log.WarnContext(ctx, "record control session", "session", session, "err", err)
	}
}

func (s *Server) closeSession(ctx context.Context, session string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE control_sessions SET closed_at = now() WHERE id = $1`, session)
	return err
}

func (s *Server) sendUnitCommand(ctx context.Context, vehicleID, command string) error {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", net.JoinHostPort(vehicleID+".units.fleet.internal", s.opts.ControlPort))
	if err != nil {
		return err
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	_, err = fmt.Fprintf(conn, "%s\n", command)
	return err
}
