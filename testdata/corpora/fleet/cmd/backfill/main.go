// Command backfill repairs trip data after an outage. It is run by cron, once a night:
// it archives trips that were cancelled while the janitor was down, refreshes missing
// pickup addresses and distances, re-sends incidents the regional cluster never
// acknowledged, and closes trips whose completion message was lost.
package main

import (
	"context"
	"database/sql"
	"flag"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	dispatchv1 "example.test/fleet/gen/fleet/dispatch/v1"
	"example.test/fleet/gen/fleet/dispatch/v1/dispatchv1connect"
	telemetryv1 "example.test/fleet/gen/fleet/telemetry/v1"
	"example.test/fleet/internal/geo"
	"example.test/fleet/internal/maps"
	"example.test/fleet/internal/pool"
	"example.test/fleet/internal/store"
	"example.test/fleet/internal/telemetry"
)

var (
	dbDriver      = flag.String("db-driver", "postgres", "database/sql driver name")
	dsn           = flag.String("dsn", os.Getenv("FLEET_DSN"), "database DSN")
	dispatchURL   = flag.String("dispatch", "http://dispatch.fleet.internal", "dispatch service")
	telemetryAddr = flag.String("telemetry", "telemetry.fleet.internal:9090", "telemetry service")
	mapsURL       = flag.String("maps", "https://maps.example.net", "maps provider")
	vehicleList   = flag.String("vehicles", "", "comma-separated vehicle ids")
	pace          = flag.Duration("pace", 200*time.Millisecond, "pause between vehicles")
	dryRun        = flag.Bool("dry-run", false, "report what would change")
)

func main() {
	flag.Parse()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))

	ctx, cancel := context.WithCancel(context.Background()) // OK
	defer cancel()
	go func() {
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, os.Interrupt)
		<-sig
		cancel()
	}()

	db, err := sql.Open(*dbDriver, *dsn)
	if err != nil {
		log.Error("open db", "err", err)
		os.Exit(1)
	}
	defer db.Close()
	repo := store.NewPG(db)

	conn, err := grpc.NewClient(*telemetryAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Error("dial telemetry", "err", err)
		os.Exit(1)
	}
	defer conn.Close()
	tc := telemetryv1.NewTelemetryServiceClient(conn)
	relay := telemetry.NewRelay(tc)
	dc := dispatchv1connect.NewDispatchServiceClient(http.DefaultClient, *dispatchURL)
	mc, err := maps.New(*mapsURL, os.Getenv("MAPS_API_KEY"), 10*time.Second)
	if err != nil {
		log.Error("maps client", "err", err)
		os.Exit(1)
	}
	gc := geo.New(geo.Config{}, mc)

	vehicles := strings.Split(*vehicleList, ",")
	var stale []string
	for _, vid := range vehicles {
		resp, err := dc.ListTrips(ctx, connect.NewRequest(&dispatchv1.ListTripsRequest{VehicleId: vid, PageSize: 500})) // BUG: missingdeadline
		if err != nil {
			log.Warn("list trips", "vehicle", vid, "err", err)
			continue
		}
		st, err := relay.Status(ctx, vid) // OK: the same ctx, on the same path, as the finding at main.go:83, which lists this call (one finding per ctx, precision issue)
		if err != nil {
			log.Warn("vehicle status", "vehicle", vid, "err", err)
		}
		for _, t := range resp.Msg.GetTrips() {
			switch t.GetState() {
			case dispatchv1.TripState_TRIP_STATE_CANCELLED:
				stale = append(stale, t.GetId())
			case dispatchv1.TripState_TRIP_STATE_EN_ROUTE:
				if st != nil && !st.GetIgnitionOn() {
					closeTrip(ctx, dc, t.GetId(), st, log) // OK
				}
			}
		}
		time.Sleep(*pace) // OK
	}

	if !*dryRun {
		for _, id := range stale {
			if err := repo.ArchiveTrip(ctx, id); err != nil { // OK
				log.Warn("archive", "trip", id, "err", err)
			}
		}
	}

	if err := refreshRoutes(ctx, db, gc, log); err != nil {
		log.Error("refresh routes", "err", err)
	}

	statuses, err := pool.Map(ctx, vehicles, 8, func(ctx context.Context, vid string) (*telemetryv1.VehicleStatus, error) {
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		return tc.GetVehicleStatus(cctx, &telemetryv1.GetVehicleStatusRequest{VehicleId: vid}) // OK
	})
	if err == nil {
		for _, st := range statuses {
			if st.GetFuelPct() < 10 {
				log.Info("low fuel", "vehicle", st.GetVehicleId(), "fuel", st.GetFuelPct())
			}
		}
	}

	missed, err := unacknowledgedIncidents(ctx, db)
	if err != nil {
		log.Error("load incidents", "err", err)
		return
	}
	for _, inc := range missed {
		resp, err := tc.ReportIncident(context.TODO(), inc) // BUG: missingdeadline
		if err != nil {
			log.Warn("re-report incident", "vehicle", inc.GetVehicleId(), "err", err)
			continue
		}
		log.Info("re-reported", "incident", resp.GetIncidentId())
	}
}

// closeTrip completes a trip whose completion message was lost. The attempts share one deadline.
func closeTrip(ctx context.Context, dc dispatchv1connect.DispatchServiceClient, id string, st *telemetryv1.VehicleStatus, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		_, err = dc.CompleteTrip(ctx, connect.NewRequest(&dispatchv1.CompleteTripRequest{Id: id})) // OK
		if err == nil || connect.CodeOf(err) != connect.CodeUnavailable {
			break
		}
		time.Sleep(time.Duration(attempt+1) * time.Second) // OK
	}
	if err != nil {
		log.Warn("close trip", "trip", id, "vehicle", st.GetVehicleId(), "err", err)
	}
}

// refreshRoutes fills in the pickup address of trips that were created while the provider was down,
// and re-applies the waypoint batches that were only partly written.
func refreshRoutes(ctx context.Context, db *sql.DB, gc *geo.Client, log *slog.Logger) error {
	rows, err := db.QueryContext(ctx, `SELECT id, pickup_lat, pickup_lng, dropoff_lat, dropoff_lng FROM trips WHERE pickup_address IS NULL LIMIT 1000`)
	if err != nil {
		return err
	}
	var trips []store.Trip
	for rows.Next() {
		var t store.Trip
		if err := rows.Scan(&t.ID, &t.Pickup.Lat, &t.Pickup.Lng, &t.Dropoff.Lat, &t.Dropoff.Lng); err != nil {
			rows.Close()
			return err
		}
		trips = append(trips, t)
	}
	rows.Close()

	return pool.Drain(ctx, trips, 4, func(ctx context.Context, t store.Trip) error { // OK
		addr, err := gc.ReverseGeocode(ctx, t.Pickup) // OK
		if err != nil {
			return err
		}
		km, _, err := gc.Route(ctx, t.Pickup, t.Dropoff) // OK
		if err != nil {
			log.Warn("route", "trip", t.ID, "err", err)
		}
		_, err = db.ExecContext(ctx, `UPDATE trips SET pickup_address = $2, distance_km = $3 WHERE id = $1`, t.ID, addr, km)
		return err
	})
}

func unacknowledgedIncidents(ctx context.Context, db *sql.DB) ([]*telemetryv1.ReportIncidentRequest, error) {
	rows, err := db.QueryContext(ctx, `SELECT vehicle_id, kind, description, lat, lng FROM incidents WHERE regional_ack IS NULL AND reported_at < now() - interval '1 hour'`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*telemetryv1.ReportIncidentRequest
	for rows.Next() {
		r := &telemetryv1.ReportIncidentRequest{}
		if err := rows.Scan(&r.VehicleId, &r.Kind, &r.Description, &r.Lat, &r.Lng); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
