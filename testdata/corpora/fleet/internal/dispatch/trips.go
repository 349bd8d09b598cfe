package dispatch

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	dispatchv1 "example.test/fleet/gen/fleet/dispatch/v1"
	telemetryv1 "example.test/fleet/gen/fleet/telemetry/v1"
	"example.test/fleet/internal/pool"
	"example.test/fleet/internal/store"
)

// AssignTrip creates a trip for a vehicle and a driver.
func (s *Server) AssignTrip(ctx context.Context, req *connect.Request[dispatchv1.AssignTripRequest]) (*connect.Response[dispatchv1.AssignTripResponse], error) {
	m := req.Msg
	if m.GetVehicleId() == "" || m.GetDriverId() == "" {
		return nil, connect.NewError(connect.CodeInvalidArgument, errors.New("vehicle_id and driver_id are required"))
	}
	driver, err := s.lookupDriver(ctx, m.GetDriverId()) // BUG: ctxbackground
	if err != nil {
		return nil, toConnectErr(err)
	}
	if !driver.Active {
		return nil, connect.NewError(connect.CodeFailedPrecondition, fmt.Errorf("driver %s is off shift", driver.ID))
	}
	if _, err := s.repo.GetVehicle(ctx, m.GetVehicleId()); err != nil { // OK
		return nil, toConnectErr(err)
	}

	pickup := toPoint(m.GetPickup())
	addr, err := s.geo.ReverseGeocode(ctx, pickup) // BUG: ctxbackground
	if err != nil {
		s.log.WarnContext(ctx, "reverse geocode pickup", "err", err)
	}
	trip := &store.Trip{
		ID:            newTripID(),
		VehicleID:     m.GetVehicleId(),
		DriverID:      driver.ID,
		State:         store.StateAssigned,
		Pickup:        pickup,
		Dropoff:       toPoint(m.GetDropoff()),
		PickupAddress: addr,
	}
	if err := s.repo.CreateTrip(ctx, trip); err != nil { // OK
		return nil, toConnectErr(err)
	}
	s.events.publish(trip, "assigned")

	if m.GetNotifyDriver() {
		n := store.Notification{To: driver.Phone, Kind: "trip.assigned", TripID: trip.ID,
			Message: fmt.Sprintf("New trip %s: pickup at %s", trip.ID, addr)}
		if err := s.notifier.Notify(ctx, n); err != nil { // OK: SMSNotifier passes ctx on, WebhookNotifier drops it: an interface call drops only when every implementation does (precision issue)
			s.log.WarnContext(ctx, "notify driver", "trip", trip.ID, "err", err)
		}
	}

	who := actor(req.Header())
	go func() {
		// the assignment has to reach the audit trail even if the dispatcher closes the console; one insert fits in 2s
		actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second) // OK
		defer cancel()
		if err := s.audit.Write(actx, store.AuditEntry{Actor: who, Action: "trip.assign", Subject: trip.ID}); err != nil {
			s.log.WarnContext(actx, "audit assign", "trip", trip.ID, "err", err)
		}
	}()
	return connect.NewResponse(&dispatchv1.AssignTripResponse{Trip: toProto(trip)}), nil
}

// GetTrip returns one trip.
func (s *Server) GetTrip(ctx context.Context, req *connect.Request[dispatchv1.GetTripRequest]) (*connect.Response[dispatchv1.Trip], error) {
	id := req.Msg.GetId()
	key := "trip:" + id
	if b, ok := s.cache.Get(key); ok { // BUG: ctxless, ctxbackground
		var t dispatchv1.Trip
		if err := proto.Unmarshal(b, &t); err == nil {
			return connect.NewResponse(&t), nil
		}
		// Logger.Warn has a WarnContext twin, so the letter of the ctxless rule covers it,
		// but a log line carries no deadline and nothing here can block on the request.
		s.log.Warn("corrupt cache entry", "key", key) // OK?
	}
	trip, err := s.repo.GetTrip(ctx, id) // OK
	if err != nil {
		return nil, toConnectErr(err)
	}
	pb := toProto(trip)
	if b, err := proto.Marshal(pb); err == nil {
		s.cache.Set(key, b) // OK
	}
	return connect.NewResponse(pb), nil
}

// CancelTrip cancels a trip that has not been completed.
func (s *Server) CancelTrip(ctx context.Context, req *connect.Request[dispatchv1.CancelTripRequest]) (*connect.Response[dispatchv1.CancelTripResponse], error) {
	m := req.Msg
	trip, err := s.repo.GetTrip(ctx, m.GetId())
	if err != nil {
		return nil, toConnectErr(err)
	}
	if trip.State == store.StateCompleted {
		return nil, connect.NewError(connect.CodeFailedPrecondition, fmt.Errorf("trip %s is already completed", trip.ID))
	}

	wctx := ctx
	if m.GetForce() {
		wctx = context.Background() // BUG: ctxbackground
	}
	if err := s.repo.UpdateTripState(wctx, trip.ID, store.StateCancelled); err != nil {
		return nil, toConnectErr(err)
	}
	trip.State = store.StateCancelled
	s.events.publish(trip, "cancelled")
	if m.GetForce() {
		if err := s.repo.ArchiveTrip(ctx, trip.ID); err != nil { // BUG: ctxbackground
			s.log.WarnContext(ctx, "archive forced cancel", "trip", trip.ID, "err", err)
		}
	}

	if s.partnerHook != "" {
		body, _ := json.Marshal(map[string]string{"trip": trip.ID, "event": "cancelled", "reason": m.GetReason()})
		hreq, err := http.NewRequest(http.MethodPost, s.partnerHook, bytes.NewReader(body)) // BUG: ctxless
		if err == nil {
			hreq.Header.Set("Content-Type", "application/json")
			if resp, err := s.httpClient.Do(hreq); err == nil {
				resp.Body.Close()
			}
		}
	}

	who := actor(req.Header())
	// a cancellation must always be in the audit trail, even when the console has gone away
	nctx := context.WithoutCancel(ctx) // BUG: detach
	go func() {
		if err := s.audit.Write(nctx, store.AuditEntry{Actor: who, Action: "trip.cancel", Subject: trip.ID, Detail: m.GetReason()}); err != nil {
			s.log.WarnContext(nctx, "audit cancel", "trip", trip.ID, "err", err)
		}
	}()
	return connect.NewResponse(&dispatchv1.CancelTripResponse{Trip: toProto(trip)}), nil
}

// ReassignDriver moves a trip to another driver.
func (s *Server) ReassignDriver(ctx context.Context, req *connect.Request[dispatchv1.ReassignDriverRequest]) (*connect.Response[dispatchv1.ReassignDriverResponse], error) {
	m := req.Msg
	trip, err := s.repo.GetTrip(ctx, m.GetTripId()) // OK
	if err != nil {
		return nil, toConnectErr(err)
	}
	driver, err := s.repo.GetDriver(ctx, m.GetDriverId()) // OK
	if err != nil {
		return nil, toConnectErr(err)
	}
	if !driver.Active {
		return nil, connect.NewError(connect.CodeFailedPrecondition, fmt.Errorf("driver %s is off shift", driver.ID))
	}

	statusOf := s.relay.Status
	if s.tel != nil {
		statusOf = s.localStatus
	}
	if st, err := statusOf(ctx, trip.VehicleID); err == nil && trip.State == store.StateEnRoute && st.GetSpeedKph() > 5 { // OK
		return nil, connect.NewError(connect.CodeFailedPrecondition, errors.New("cannot swap drivers while the vehicle is moving"))
	}

	change := driverChange{ctx: ctx, trip: trip, from: trip.DriverID, to: driver} // OK
	if err := s.applyDriverChange(change); err != nil {                           // OK
		return nil, toConnectErr(err)
	}
	forget := func(driverID string) error {
		return s.cache.Put(s.writeContext(), "driver-current:"+driverID, nil) // BUG: ctxflow
	}
	if change.from != "" {
		if err := forget(change.from); err != nil {
			s.log.WarnContext(ctx, "forget previous driver", "driver", change.from, "err", err)
		}
	}
	s.events.publish(trip, "reassigned")
	return connect.NewResponse(&dispatchv1.ReassignDriverResponse{Trip: toProto(trip)}), nil
}

// closeout carries what CompleteTrip needs to finish a trip.
type closeout struct {
	ctx      context.Context
	trip     *store.Trip
	odometer float64
}

// CompleteTrip marks a trip as done and produces the receipt.
func (s *Server) CompleteTrip(ctx context.Context, req *connect.Request[dispatchv1.CompleteTripRequest]) (*connect.Response[dispatchv1.CompleteTripResponse], error) {
	m := req.Msg
	trip, err := s.repo.GetTrip(ctx, m.GetId())
	if err != nil {
		return nil, toConnectErr(err)
	}
	if trip.State != store.StateAssigned && trip.State != store.StateEnRoute {
		return nil, connect.NewError(connect.CodeFailedPrecondition, fmt.Errorf("trip %s cannot be completed from state %d", trip.ID, trip.State))
	}
	fin := closeout{
		ctx:      s.baseCtx,
		trip:     trip,
		odometer: m.GetOdometerKm(),
	}
	if err := s.repo.UpdateTripState(fin.ctx, fin.trip.ID, store.StateCompleted); err != nil { // BUG: ctxflow
		return nil, toConnectErr(err)
	}
	trip.State = store.StateCompleted

	settle := func(km float64) error {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // BUG: ctxbackground
		defer cancel()
		return s.repo.SaveOdometer(sctx, fin.trip.VehicleID, km)
	}
	if fin.odometer > 0 {
		if err := settle(fin.odometer); err != nil {
			s.log.WarnContext(ctx, "save odometer", "vehicle", trip.VehicleID, "err", err)
		}
	}

	receipt := filepath.Join(s.receiptsDir, trip.ID+".pdf")
	if out, err := exec.Command("render-receipt", "--trip", trip.ID, "--out", receipt).CombinedOutput(); err != nil { // BUG: ctxless
		s.log.WarnContext(ctx, "render receipt", "trip", trip.ID, "err", err, "output", string(out))
	}
	if s.partnerHook != "" {
		body, _ := json.Marshal(map[string]string{"trip": trip.ID, "event": "completed"})
		hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, s.partnerHook, bytes.NewReader(body)) // OK
		if err == nil {
			if resp, err := s.httpClient.Do(hreq); err == nil {
				resp.Body.Close()
			}
		}
	}

	s.events.publish(trip, "completed")
	who := actor(req.Header())
	go func() {
		actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second)
		// ^BUG: detach
		defer cancel()
		_ = s.audit.Write(actx, store.AuditEntry{Actor: who, Action: "trip.complete", Subject: trip.ID})
	}()
	return connect.NewResponse(&dispatchv1.CompleteTripResponse{Trip: toProto(trip)}), nil
}

// ListTrips returns one page of a vehicle's trips.
func (s *Server) ListTrips(ctx context.Context, req *connect.Request[dispatchv1.ListTripsRequest]) (*connect.Response[dispatchv1.ListTripsResponse], error) {
	m := req.Msg
	trips, next, err := s.repo.ListTrips(ctx, m.GetVehicleId(), int(m.GetPageSize()), m.GetPageToken()) // OK
	if err != nil {
		return nil, toConnectErr(err)
	}
	total, err := s.repo.CountTrips(lifecycle, m.GetVehicleId()) // BUG: ctxflow
	if err != nil {
		return nil, toConnectErr(err)
	}

	seen := make(map[string]bool)
	var driverIDs []string
	for _, t := range trips {
		if t.DriverID != "" && !seen[t.DriverID] {
			seen[t.DriverID] = true
			driverIDs = append(driverIDs, t.DriverID)
		}
	}
	names := make(map[string]string, len(driverIDs))
	for batch := range pool.Chunk(driverIDs, 25) {
		drivers, err := pool.Map(ctx, batch, 8, s.repo.GetDriver) // OK
		if err != nil {
			return nil, toConnectErr(err)
		}
		for _, d := range drivers {
			names[d.ID] = d.Name
		}
		time.Sleep(20 * time.Millisecond) // BUG: ctxless
	}

	out := &dispatchv1.ListTripsResponse{NextPageToken: next}
	for i := range trips {
		pb := toProto(&trips[i])
		if n, ok := names[pb.DriverId]; ok {
			pb.PickupAddress = n + " @ " + pb.PickupAddress
		}
		out.Trips = append(out.Trips, pb)
	}
	resp := connect.NewResponse(out)
	resp.Header().Set("X-Total-Count", strconv.Itoa(total))
	return resp, nil
}

// EstimateArrival estimates when the vehicle of a trip reaches its next stop.
func (s *Server) EstimateArrival(ctx context.Context, req *connect.Request[dispatchv1.EstimateArrivalRequest]) (*connect.Response[dispatchv1.EstimateArrivalResponse], error) {
	trip, err := s.repo.GetTrip(ctx, req.Msg.GetTripId()) // OK
	if err != nil {
		return nil, toConnectErr(err)
	}
	key := "eta:" + trip.ID
	if b, ok := s.cache.GetContext(ctx, key); ok && len(b) == 16 { // OK
		return connect.NewResponse(decodeETA(b)), nil
	}

	var st *telemetryv1.VehicleStatus
	for attempt := 0; attempt < 3; attempt++ {
		st, err = s.tel.GetVehicleStatus(ctx, &telemetryv1.GetVehicleStatusRequest{VehicleId: trip.VehicleID}) // OK
		if err == nil || status.Code(err) != codes.Unavailable {
			break
		}
		time.Sleep(time.Duration(attempt+1) * 150 * time.Millisecond) // BUG: ctxless
	}
	if err != nil {
		return nil, connect.NewError(connect.CodeUnavailable, fmt.Errorf("vehicle position: %w", err))
	}

	from := store.Point{Lat: st.GetLat(), Lng: st.GetLng()}
	to := trip.Dropoff
	if trip.State == store.StateAssigned {
		to = trip.Pickup
	}
	km, d, err := s.geo.Route(ctx, from, to) // BUG: ctxbackground
	if err != nil {
		s.log.WarnContext(ctx, "route", "trip", trip.ID, "err", err)
		km = 0
		if d, err = s.geo.EstimateETA(ctx, from, to); err != nil { // OK
			return nil, toConnectErr(err)
		}
	}
	out := &dispatchv1.EstimateArrivalResponse{EtaSeconds: int64(d / time.Second), DistanceKm: km}
	defer s.cache.Put(s.baseCtx, key, encodeETA(out)) // BUG: ctxflow
	return connect.NewResponse(out), nil
}

func encodeETA(r *dispatchv1.EstimateArrivalResponse) []byte {
	b := make([]byte, 16)
	binary.BigEndian.PutUint64(b[:8], uint64(r.GetEtaSeconds()))
	binary.BigEndian.PutUint64(b[8:], math.Float64bits(r.GetDistanceKm()))
	return b
}

func decodeETA(b []byte) *dispatchv1.EstimateArrivalResponse {
	return &dispatchv1.EstimateArrivalResponse{
		EtaSeconds: int64(binary.BigEndian.Uint64(b[:8])),
		DistanceKm: math.Float64frombits(binary.BigEndian.Uint64(b[8:])),
	}
}
