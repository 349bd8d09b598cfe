package dispatch

import (
	"context"
	"errors"

	"connectrpc.com/connect"

	dispatchv1 "example.test/fleet/gen/fleet/dispatch/v1"
	telemetryv1 "example.test/fleet/gen/fleet/telemetry/v1"
	"example.test/fleet/internal/pool"
	"example.test/fleet/internal/store"
)

// WatchTrips streams a snapshot of a vehicle's trips followed by live changes.
func (s *Server) WatchTrips(ctx context.Context, req *connect.Request[dispatchv1.WatchTripsRequest], stream *connect.ServerStream[dispatchv1.TripEvent]) error {
	vid := req.Msg.GetVehicleId()
	if vid == "" {
		return connect.NewError(connect.CodeInvalidArgument, errors.New("vehicle_id is required"))
	}
	events, unsubscribe := s.events.subscribe(vid)
	defer unsubscribe()

	go s.audit.Write(s.baseCtx, store.AuditEntry{Actor: actor(req.Header()), Action: "trip.watch", Subject: vid}) // BUG: ctxflow

	for t, err := range s.repo.TripsForVehicle(ctx, vid) { // OK
		if err != nil {
			return toConnectErr(err)
		}
		ev := &dispatchv1.TripEvent{Trip: toProto(&t), Kind: "snapshot"}
		if t.State == store.StateEnRoute {
			st, err := s.tel.GetVehicleStatus(context.Background(), &telemetryv1.GetVehicleStatusRequest{VehicleId: vid}) // BUG: ctxbackground
			if err == nil && st.GetSpeedKph() > 0 {
				ev.Kind = "snapshot:moving"
			}
		}
		if err := stream.Send(ev); err != nil {
			return err
		}
	}

	for {
		select {
		case <-ctx.Done():
			return nil
		case ev := <-events:
			if err := stream.Send(ev); err != nil {
				return err
			}
		}
	}
}

// UploadWaypoints accepts the recorded track of a trip from the driver app.
func (s *Server) UploadWaypoints(ctx context.Context, stream *connect.ClientStream[dispatchv1.Waypoint]) (*connect.Response[dispatchv1.UploadWaypointsResponse], error) {
	var (
		pts      []store.Waypoint
		rejected int32
		tripID   string
	)
	for stream.Receive() {
		wp := stream.Msg()
		if wp.GetTripId() == "" || wp.GetPosition() == nil || (tripID != "" && wp.GetTripId() != tripID) {
			rejected++
			continue
		}
		tripID = wp.GetTripId()
		pts = append(pts, store.Waypoint{TripID: tripID, Position: toPoint(wp.GetPosition()), RecordedAt: wp.GetRecordedAt().AsTime()})
	}
	if err := stream.Err(); err != nil {
		return nil, err
	}
	if len(pts) == 0 {
		return connect.NewResponse(&dispatchv1.UploadWaypointsResponse{Rejected: rejected}), nil
	}
	if _, err := s.repo.GetTrip(ctx, tripID); err != nil { // OK
		return nil, toConnectErr(err)
	}

	if err := pool.Drain(ctx, pts, 8, s.repo.RecordWaypoint); err != nil { // BUG: ctxbackground
		return nil, connect.NewError(connect.CodeInternal, err)
	}
	if s.snapURL != "" {
		job := snapJob{ctx: context.Background(), tripID: tripID, points: pts} // BUG: ctxbackground
		go s.snapToRoad(job)
	}
	return connect.NewResponse(&dispatchv1.UploadWaypointsResponse{Accepted: int32(len(pts)), Rejected: rejected}), nil
}
