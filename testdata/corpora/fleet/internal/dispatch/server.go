// Package dispatch implements the DispatchService (connect-go): trip assignment, cancellation,
// completion and the live trip feed used by the dispatcher console.
package dispatch

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"connectrpc.com/connect"

	dispatchv1 "example.test/fleet/gen/fleet/dispatch/v1"
	"example.test/fleet/gen/fleet/dispatch/v1/dispatchv1connect"
	telemetryv1 "example.test/fleet/gen/fleet/telemetry/v1"
	"example.test/fleet/internal/geo"
	"example.test/fleet/internal/store"
	"example.test/fleet/internal/telemetry"
)

// lifecycle is cancelled by Shutdown; periodic work started by the package hangs off it.
var lifecycle, stopLifecycle = context.WithCancel(context.Background())

// Shutdown stops the package's periodic work.
func Shutdown() { stopLifecycle() }

// Deps are the collaborators of the service.
type Deps struct {
	Repo        store.Repository
	Notifier    store.Notifier
	Cache       *store.Cache
	Geo         *geo.Client
	Relay       *telemetry.Relay
	Telemetry   telemetryv1.TelemetryServiceClient
	Audit       *store.AuditLog
	Log         *slog.Logger
	ReceiptsDir string
	PartnerHook string
	SnapURL     string
}

// Server implements dispatchv1connect.DispatchServiceHandler.
type Server struct {
	baseCtx     context.Context
	repo        store.Repository
	notifier    store.Notifier
	cache       *store.Cache
	geo         *geo.Client
	relay       *telemetry.Relay
	tel         telemetryv1.TelemetryServiceClient
	audit       *store.AuditLog
	log         *slog.Logger
	httpClient  *http.Client
	receiptsDir string
	partnerHook string
	snapURL     string
	events      *broker

	driversMu sync.Mutex
	drivers   map[string]cachedDriver
}

var _ dispatchv1connect.DispatchServiceHandler = (*Server)(nil)

type cachedDriver struct {
	d       *store.Driver
	fetched time.Time
}

// New builds the service. ctx lives as long as the process.
func New(ctx context.Context, d Deps) *Server {
	return &Server{
		baseCtx:     ctx,
		repo:        d.Repo,
		notifier:    d.Notifier,
		cache:       d.Cache,
		geo:         d.Geo,
		relay:       d.Relay,
		tel:         d.Telemetry,
		audit:       d.Audit,
		log:         d.Log,
		httpClient:  &http.Client{Timeout: 10 * time.Second},
		receiptsDir: d.ReceiptsDir,
		partnerHook: d.PartnerHook,
		snapURL:     d.SnapURL,
		events:      newBroker(),
		drivers:     make(map[string]cachedDriver),
	}
}

// Handler returns the mount path and HTTP handler of the service.
func (s *Server) Handler(opts ...connect.HandlerOption) (string, http.Handler) {
	return dispatchv1connect.NewDispatchServiceHandler(s, opts...)
}

// RunJanitor periodically archives trips that were cancelled more than a day ago.
// It is started once by main and stops with the server context.
func (s *Server) RunJanitor(interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-s.baseCtx.Done():
			return
		case <-t.C:
		}
		trips, _, err := s.repo.ListTrips(s.baseCtx, "", 200, "") // OK
		if err != nil {
			s.log.ErrorContext(s.baseCtx, "janitor: list trips", "err", err)
			continue
		}
		for _, tr := range trips {
			if tr.State == store.StateCancelled && time.Since(tr.UpdatedAt) > 24*time.Hour {
				if err := s.repo.ArchiveTrip(s.baseCtx, tr.ID); err != nil { // OK
					s.log.WarnContext(s.baseCtx, "janitor: archive", "trip", tr.ID, "err", err)
				}
			}
		}
	}
}

// RefreshTotals recomputes the per-vehicle trip counters shown on the console.
func RefreshTotals(repo store.Repository, vehicleIDs []string) map[string]int {
	out := make(map[string]int, len(vehicleIDs))
	for _, id := range vehicleIDs {
		if n, err := repo.CountTrips(lifecycle, id); err == nil { // OK
			out[id] = n
		}
	}
	return out
}

// writeContext is the context for writes that must not be cut short by a client disconnect.
func (s *Server) writeContext() context.Context {
	return s.baseCtx
}

// lookupDriver returns a driver, served from a short-lived in-process cache.
func (s *Server) lookupDriver(_ context.Context, id string) (*store.Driver, error) {
	s.driversMu.Lock()
	c, ok := s.drivers[id]
	s.driversMu.Unlock()
	if ok && time.Since(c.fetched) < 30*time.Second {
		return c.d, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	d, err := s.repo.GetDriver(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("lookup driver %s: %w", id, err)
	}
	s.driversMu.Lock()
	s.drivers[id] = cachedDriver{d: d, fetched: time.Now()}
	s.driversMu.Unlock()
	return d, nil
}

// localStatus asks the telemetry service of this region directly.
func (s *Server) localStatus(ctx context.Context, vehicleID string) (*telemetryv1.VehicleStatus, error) {
	return s.tel.GetVehicleStatus(ctx, &telemetryv1.GetVehicleStatusRequest{VehicleId: vehicleID})
}

// driverChange is one driver swap on a trip.
type driverChange struct {
	ctx  context.Context
	trip *store.Trip
	from string
	to   *store.Driver
}

func (s *Server) applyDriverChange(c driverChange) error {
	if err := s.repo.AssignDriver(c.ctx, c.trip.ID, c.to.ID); err != nil {
		return err
	}
	c.trip.DriverID = c.to.ID
	if c.from != "" {
		if err := s.cache.Put(c.ctx, "driver-trip:"+c.from, nil); err != nil {
			return err
		}
	}
	return s.audit.Write(c.ctx, store.AuditEntry{
		Actor: "dispatch", Action: "trip.reassign", Subject: c.trip.ID,
		Detail: fmt.Sprintf("%s -> %s", c.from, c.to.ID),
	})
}

// snapJob asks the road-snapping service to clean up an uploaded track.
type snapJob struct {
	ctx    context.Context
	tripID string
	points []store.Waypoint
}

func (s *Server) snapToRoad(job snapJob) {
	body, err := json.Marshal(job.points)
	if err != nil {
		return
	}
	req, err := http.NewRequestWithContext(job.ctx, http.MethodPost, s.snapURL+"/snap?trip="+job.tripID, bytes.NewReader(body))
	if err != nil {
		return
	}
	resp, err := s.httpClient.Do(req)
	if err != nil {
		s.log.WarnContext(job.ctx, "snap to road", "trip", job.tripID, "err", err)
		return
	}
	defer resp.Body.Close()
	var snapped []store.Waypoint
	if err := json.NewDecoder(resp.Body).Decode(&snapped); err != nil {
		return
	}
	for _, wp := range snapped {
		if err := s.repo.RecordWaypoint(job.ctx, wp); err != nil {
			return
		}
	}
}

func newTripID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "trip_" + hex.EncodeToString(b[:])
}

func toConnectErr(err error) error {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return connect.NewError(connect.CodeNotFound, err)
	case errors.Is(err, context.DeadlineExceeded):
		return connect.NewError(connect.CodeDeadlineExceeded, err)
	case errors.Is(err, context.Canceled):
		return connect.NewError(connect.CodeCanceled, err)
	default:
		return connect.NewError(connect.CodeInternal, err)
	}
}

func toPoint(p *dispatchv1.LatLng) store.Point {
	return store.Point{Lat: p.GetLat(), Lng: p.GetLng()}
}

func toProto(t *store.Trip) *dispatchv1.Trip {
	return &dispatchv1.Trip{
		Id:            t.ID,
		VehicleId:     t.VehicleID,
		DriverId:      t.DriverID,
		State:         dispatchv1.TripState(t.State),
		Pickup:        &dispatchv1.LatLng{Lat: t.Pickup.Lat, Lng: t.Pickup.Lng},
		Dropoff:       &dispatchv1.LatLng{Lat: t.Dropoff.Lat, Lng: t.Dropoff.Lng},
		PickupAddress: t.PickupAddress,
	}
}

func actor(h http.Header) string {
	if a := h.Get("X-Fleet-Actor"); a != "" {
		return a
	}
	return "anonymous"
}

// broker fans trip events out to WatchTrips calls.
type broker struct {
	mu   sync.Mutex
	subs map[string]map[chan *dispatchv1.TripEvent]struct{}
}

func newBroker() *broker {
	return &broker{subs: make(map[string]map[chan *dispatchv1.TripEvent]struct{})}
}

func (b *broker) subscribe(vehicleID string) (<-chan *dispatchv1.TripEvent, func()) {
	ch := make(chan *dispatchv1.TripEvent, 16)
	b.mu.Lock()
	if b.subs[vehicleID] == nil {
		b.subs[vehicleID] = make(map[chan *dispatchv1.TripEvent]struct{})
	}
	b.subs[vehicleID][ch] = struct{}{}
	b.mu.Unlock()
	return ch, func() {
		b.mu.Lock()
		delete(b.subs[vehicleID], ch)
		b.mu.Unlock()
	}
}

func (b *broker) publish(t *store.Trip, kind string) {
	ev := &dispatchv1.TripEvent{Trip: toProto(t), Kind: kind}
	b.mu.Lock()
	defer b.mu.Unlock()
	for ch := range b.subs[t.VehicleID] {
		select {
		case ch <- ev:
		default:
		}
	}
}
