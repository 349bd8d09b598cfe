// Command fleetd serves the DispatchService (connect, on the HTTP port) and the
// TelemetryService (gRPC), and runs the event-bus consumers.
package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	dispatchv1 "example.test/fleet/gen/fleet/dispatch/v1"
	"example.test/fleet/gen/fleet/dispatch/v1/dispatchv1connect"
	telemetryv1 "example.test/fleet/gen/fleet/telemetry/v1"
	"example.test/fleet/internal/dispatch"
	"example.test/fleet/internal/geo"
	"example.test/fleet/internal/maps"
	"example.test/fleet/internal/queue"
	"example.test/fleet/internal/store"
	"example.test/fleet/internal/telemetry"
)

var (
	httpAddr     = flag.String("http", ":8080", "dispatch (connect) listen address")
	grpcAddr     = flag.String("grpc", ":9090", "telemetry (gRPC) listen address")
	dbDriver     = flag.String("db-driver", "postgres", "database/sql driver name (linked in by the release build)")
	dsn          = flag.String("dsn", os.Getenv("FLEET_DSN"), "database DSN")
	upstreamAddr = flag.String("upstream", "telemetry.region.fleet.internal:443", "regional telemetry cluster")
	mapsURL      = flag.String("maps", "https://maps.example.net", "maps provider base URL")
	tileServer   = flag.String("tiles", "", "offline tile server base URL")
	smsURL       = flag.String("sms", "https://sms.example.net/v1/messages", "SMS gateway")
	smsFrom      = flag.String("sms-from", "FLEET", "SMS sender id")
	webhookURL   = flag.String("webhook", "", "customer webhook for notifications (instead of SMS)")
	busURL       = flag.String("bus", "http://bus.fleet.internal", "event bus")
	peerURL      = flag.String("peer", "", "dispatch service of the neighbouring region, for trip hand-over")
	peerVehicles = flag.String("peer-vehicles", "", "comma-separated vehicles shared with the peer region")
	receipts     = flag.String("receipts", "/var/lib/fleet/receipts", "receipt output directory")
	partnerHook  = flag.String("partner-hook", "", "partner integration webhook")
	snapURL      = flag.String("snap", "", "road-snapping service")
)

func main() {
	flag.Parse()
	log := slog.New(slog.NewJSONHandler(os.Stdout, nil))
	if err := run(log); err != nil {
		log.Error("fleetd exiting", "err", err)
		os.Exit(1)
	}
}

func run(log *slog.Logger) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM) // OK
	defer stop()

	db, err := sql.Open(*dbDriver, *dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	err = db.PingContext(pctx)
	cancel()
	if err != nil {
		return err
	}
	repo := store.NewPG(db)
	if err := repo.Migrate(); err != nil {
		return err
	}
	audit := store.NewAuditLog(db)
	var notifier store.Notifier = store.NewSMSNotifier(http.DefaultClient, *smsURL, *smsFrom)
	if *webhookURL != "" {
		notifier = store.NewWebhookNotifier(http.DefaultClient, *webhookURL, []byte(os.Getenv("FLEET_WEBHOOK_SECRET")))
	}
	cache := store.NewCache(30*time.Second, nil)

	mc, err := maps.New(*mapsURL, os.Getenv("MAPS_API_KEY"), 4*time.Second)
	if err != nil {
		return err
	}
	if err := mc.Ping(); err != nil {
		log.Warn("maps provider not reachable at start-up", "err", err)
	}
	gc := geo.New(geo.Config{TileServer: *tileServer}, mc)

	upConn, err := grpc.NewClient(*upstreamAddr,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithUnaryInterceptor(defaultDeadline(5*time.Second)))
	if err != nil {
		return err
	}
	defer upConn.Close()
	upstream := telemetryv1.NewTelemetryServiceClient(upConn)
	if _, err := upstream.GetVehicleStatus(ctx, &telemetryv1.GetVehicleStatusRequest{VehicleId: "__probe__"}); err != nil && status.Code(err) != codes.NotFound { // OK
		log.Warn("regional telemetry not reachable", "err", err)
	}
	relay := telemetry.NewRelay(upstream)
	hub := telemetry.NewHub()
	go hub.Run(ctx) // OK

	tsrv := telemetry.NewServer(ctx, db, repo, audit, relay, hub, telemetry.Options{
		OTAURL:     "http://ota.fleet.internal",
		OpsWebhook: "http://ops.fleet.internal/hooks/collision",
	}, log)
	gs := grpc.NewServer(
		grpc.ChainUnaryInterceptor(telemetry.UnaryAudit(audit, log)),
		grpc.ChainStreamInterceptor(telemetry.StreamLogging(log)),
	)
	tsrv.Register(gs)

	localConn, err := grpc.NewClient(loopback(*grpcAddr), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer localConn.Close()
	local := telemetryv1.NewTelemetryServiceClient(localConn)

	dsrv := dispatch.New(ctx, dispatch.Deps{
		Repo: repo, Notifier: notifier, Cache: cache, Geo: gc, Relay: relay, Telemetry: local,
		Audit: audit, Log: log, ReceiptsDir: *receipts, PartnerHook: *partnerHook, SnapURL: *snapURL,
	})
	go dsrv.RunJanitor(10 * time.Minute)

	consumer := queue.NewConsumer(queue.NewHTTPSubscriber(*busURL, "fleetd"), 30*time.Second, log)
	queue.NewTripHandlers(ctx, repo, audit, local, db, log).Register(consumer)
	go func() {
		if err := consumer.Run(ctx); err != nil {
			log.Error("consumer stopped", "err", err)
		}
	}()

	if *peerURL != "" && *peerVehicles != "" {
		peer := dispatchv1connect.NewDispatchServiceClient(http.DefaultClient, *peerURL, connect.WithGRPC())
		go syncFromPeer(ctx, peer, repo, strings.Split(*peerVehicles, ","), log) // BUG: missingdeadline
	}

	lis, err := net.Listen("tcp", *grpcAddr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle(dsrv.Handler())
	var protocols http.Protocols
	protocols.SetHTTP1(true)
	protocols.SetUnencryptedHTTP2(true)
	httpSrv := &http.Server{Addr: *httpAddr, Handler: mux, Protocols: &protocols, ReadHeaderTimeout: 5 * time.Second}

	errc := make(chan error, 2)
	go func() { errc <- gs.Serve(lis) }()
	go func() { errc <- httpSrv.ListenAndServe() }()
	select {
	case <-ctx.Done():
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			log.Error("listener failed", "err", err)
		}
	}

	shutdownCtx, cancel := context.WithTimeout(context.Background(), 15*time.Second) // OK
	defer cancel()
	dispatch.Shutdown()
	_ = httpSrv.Shutdown(shutdownCtx)
	gs.GracefulStop()
	return nil
}

// defaultDeadline gives every unary call on the connection a deadline when the caller set none.
func defaultDeadline(d time.Duration) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if _, ok := ctx.Deadline(); !ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, d)
			defer cancel()
		}
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}

// syncFromPeer imports the trips of shared vehicles that were created in the neighbouring region.
func syncFromPeer(ctx context.Context, peer dispatchv1connect.DispatchServiceClient, repo store.Repository, vehicles []string, log *slog.Logger) {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		for _, vid := range vehicles {
			resp, err := peer.ListTrips(ctx, connect.NewRequest(&dispatchv1.ListTripsRequest{VehicleId: vid, PageSize: 100}))
			if err != nil {
				log.WarnContext(ctx, "peer sync", "vehicle", vid, "err", err)
				continue
			}
			for _, tr := range resp.Msg.GetTrips() {
				if _, err := repo.GetTrip(ctx, tr.GetId()); !errors.Is(err, store.ErrNotFound) {
					continue
				}
				_ = repo.CreateTrip(ctx, &store.Trip{
					ID: tr.GetId(), VehicleID: tr.GetVehicleId(), DriverID: tr.GetDriverId(), State: store.TripState(tr.GetState()),
					Pickup:  store.Point{Lat: tr.GetPickup().GetLat(), Lng: tr.GetPickup().GetLng()},
					Dropoff: store.Point{Lat: tr.GetDropoff().GetLat(), Lng: tr.GetDropoff().GetLng()},
				})
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func loopback(addr string) string {
	if strings.HasPrefix(addr, ":") {
		return "127.0.0.1" + addr
	}
	return addr
}
