// Command gatewayd runs the edge gateway's control plane: the EdgeService gRPC
// API, the connect-go AccountsService, and an admin HTTP server with health and
// metrics endpoints.
package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	_ "github.com/lib/pq"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"example.test/gateway/gen/accounts/v1/accountsv1connect"
	authzv1 "example.test/gateway/gen/authz/v1"
	"example.test/gateway/internal/accesslog"
	"example.test/gateway/internal/accounts"
	"example.test/gateway/internal/audit"
	"example.test/gateway/internal/authn"
	"example.test/gateway/internal/billing"
	"example.test/gateway/internal/config"
	"example.test/gateway/internal/crash"
	"example.test/gateway/internal/edge"
	"example.test/gateway/internal/events"
	"example.test/gateway/internal/flags"
	"example.test/gateway/internal/metrics"
	"example.test/gateway/internal/middleware"
	"example.test/gateway/internal/nodes"
	"example.test/gateway/internal/platform/kv"
	"example.test/gateway/internal/purge"
	"example.test/gateway/internal/routestore"
	"example.test/gateway/internal/server"
	"example.test/gateway/internal/tenants"
	"example.test/gateway/internal/tunnels"
	"example.test/gateway/internal/upstream"
)

var (
	grpcAddr     = flag.String("grpc-addr", ":8443", "EdgeService listen address")
	connectAddr  = flag.String("connect-addr", ":8445", "AccountsService listen address")
	adminAddr    = flag.String("admin-addr", ":9090", "admin HTTP listen address (health, metrics)")
	dsn          = flag.String("dsn", "postgres://gateway@localhost/gateway?sslmode=disable", "Postgres DSN")
	kvAddr       = flag.String("kv-addr", "127.0.0.1:11211", "cache sidecar address")
	authzAddr    = flag.String("authz-addr", "authz.internal:443", "authz service")
	configAddr   = flag.String("config-addr", "config.internal:443", "config service")
	accountsURL  = flag.String("accounts-url", "http://127.0.0.1:8445", "accounts service base URL (for deep pings)")
	billingURL   = flag.String("billing-url", "http://billing.internal", "billing service base URL")
	eventsURL    = flag.String("events-url", "http://events.internal", "event bus ingest")
	trackerURL   = flag.String("tracker-url", "http://errors.internal/ingest", "error tracker ingest")
	metricsURL   = flag.String("metrics-url", "http://metrics.internal/push", "metrics push gateway")
	cdnURL       = flag.String("cdn-url", "http://cdn-api.internal", "CDN purge API")
	jwksURL      = flag.String("partner-jwks", "http://partners.internal/.well-known/jwks.json", "partner key set")
	cluster      = flag.String("cluster", "edge-eu-1", "cluster name")
	nodeName     = flag.String("node", "", "node name (defaults to hostname)")
	bootstrapKey = flag.String("bootstrap-key", "", "operator API key to verify at start-up")
	strict       = flag.Bool("strict-deadlines", false, "reject control-plane calls without a deadline")
)

func main() {
	flag.Parse()
	if err := run(); err != nil {
		log.Fatal(err)
	}
}

func run() error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM) // OK
	defer stop()
	if *nodeName == "" {
		*nodeName, _ = os.Hostname()
	}

	db, err := sql.Open("postgres", *dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	for attempt := 1; ; attempt++ {
		if err = db.Ping(); err == nil { // OK
			break
		}
		if attempt == 5 {
			return err
		}
		time.Sleep(time.Second) // OK
	}

	cache := kv.New(*kvAddr, 200*time.Millisecond)
	defer cache.Close()
	httpClient := &http.Client{Timeout: 10 * time.Second}

	authzConn, err := upstream.Dial(*authzAddr, upstream.Options{DefaultTimeout: 500 * time.Millisecond, Attempts: 2})
	if err != nil {
		return err
	}
	defer authzConn.Close()
	authz := authzv1.NewAuthzServiceClient(authzConn)
	// The policy engine must be reachable before the gateway takes traffic. The
	// conn comes from upstream.Dial, whose chain includes clientx.DefaultDeadline,
	// so this call does get a deadline, but neither is visible from this package.
	if _, err := authz.Check(ctx, &authzv1.CheckRequest{Subject: "gatewayd:" + *nodeName, Action: "serve", Resource: *cluster}); err != nil { // OK?
		return err
	}

	keys := authn.NewKeyStore(db, 2*time.Second)
	if *bootstrapKey != "" {
		if _, err := keys.Check(*bootstrapKey); err != nil { // OK
			return err
		}
	}

	deadlines := middleware.NewDeadlines(5 * time.Second)
	limiter := middleware.NewMethodLimiter(200, 50)
	fs := flags.New(cache)
	configConn, err := grpc.NewClient(*configAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer configConn.Close()
	rl, err := config.NewReloader(configConn, *cluster, 30*time.Second, 3*time.Second, config.Sinks{
		Timeouts:   deadlines.Update,
		RateLimits: limiter.SetRates,
		Flags:      fs.Replace,
	})
	if err != nil {
		return err
	}
	go func() {
		if err := rl.Run(ctx); err != nil && !errors.Is(err, context.Canceled) { // BUG: missingdeadline
			log.Printf("config reloader stopped: %v", err)
		}
	}()

	lifetime, cancelLifetime := context.WithCancel(context.Background()) // OK
	defer cancelLifetime()
	edgeSrv, err := edge.NewServer(edge.Config{
		NodeName: *nodeName, PollInterval: time.Second, DialTimeout: 3 * time.Second,
		FlushTimeout: 5 * time.Second, WarmupTimeout: 10 * time.Second, CompactEvery: time.Hour,
		AllowedPorts: []string{"5432", "6379", "9000"},
	}, edge.Deps{
		DB: db, Routes: routestore.New(db), Nodes: nodes.NewRegistry(httpClient, map[string]string{}),
		Purger: purge.New(cache, *cdnURL, httpClient), Logs: accesslog.NewWriter(db), KV: cache, Authz: authz,
		Accounts: accountsv1connect.NewAccountsServiceClient(httpClient, *accountsURL), Resolver: net.DefaultResolver,
	})
	if err != nil {
		return err
	}
	edgeSrv.Start()
	defer edgeSrv.Close()

	acctHandler, err := accounts.NewHandler(lifetime, db, billing.NewClient(*billingURL, httpClient),
		events.NewPublisher(*eventsURL, httpClient), accounts.Options{Sealer: "/usr/local/bin/kms", PublishTimeout: 3 * time.Second, PollEvery: 2 * time.Second})
	if err != nil {
		return err
	}

	rec := metrics.NewRecorder(*metricsURL, httpClient, 500)
	sink := audit.NewSink(db)
	deps := server.Deps{
		Edge: edgeSrv, Accounts: acctHandler, Crash: crash.NewReporter(*trackerURL, *nodeName, httpClient),
		Metrics: rec, Deadlines: deadlines, Keys: keys,
		Auth:    middleware.NewAuthenticator(authn.NewSessions(cache, "sess:"), authz, []string{"/edge.v1.EdgeService/Ping"}, time.Second),
		Tenants: tenants.NewDirectory(db, time.Minute), Limiter: limiter,
		Quota:     middleware.NewQuota(lifetime, cache, func(plan string) int64 { return map[string]int64{"free": 10000, "pro": 1000000}[plan] }),
		Preloader: middleware.NewPreloader(lifetime, cache),
		Auditor:   middleware.NewAuditor(sink, 2*time.Second, "/edge.v1.EdgeService/PurgeCache", "/edge.v1.EdgeService/DrainNode", "/edge.v1.EdgeService/UploadAccessLogs"),
		Audit:     sink, Tunnels: tunnels.NewRegistry(cache, *nodeName, 10*time.Minute), KV: cache, Flags: fs,
		JWT:      middleware.JWTConfig{JWKSURL: *jwksURL, Issuer: "partners", Audience: "edge", Methods: map[string]bool{"/edge.v1.EdgeService/GetRoute": true}},
		PlanRPS:  map[string]float64{"free": 5, "pro": 100, "default": 10},
		Prefetch: map[string][]string{"/edge.v1.EdgeService/GetRoute": {"acct:{account}"}},
		Strict:   *strict,
	}

	gs := server.NewGRPC(deps)
	lis, err := net.Listen("tcp", *grpcAddr)
	if err != nil {
		return err
	}
	go func() {
		if err := gs.Serve(lis); err != nil {
			log.Printf("grpc server: %v", err)
		}
	}()

	path, h := server.NewConnect(deps)
	cmux := http.NewServeMux()
	cmux.Handle(path, h)
	connectSrv := &http.Server{Addr: *connectAddr, Handler: cmux, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		if err := connectSrv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Printf("connect server: %v", err)
		}
	}()

	admin := &http.Server{Addr: *adminAddr, Handler: adminMux(db, cache, healthpb.NewHealthClient(configConn), rec), ReadHeaderTimeout: 5 * time.Second}
	go func() {
		if err := admin.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Printf("admin server: %v", err)
		}
	}()

	log.Printf("gatewayd %s serving on %s (grpc), %s (connect), %s (admin)", *nodeName, *grpcAddr, *connectAddr, *adminAddr)
	<-ctx.Done()

	sctx, cancel := context.WithTimeout(context.Background(), 15*time.Second) // OK
	defer cancel()
	_ = admin.Shutdown(sctx)
	_ = connectSrv.Shutdown(sctx)
	stopped := make(chan struct{})
	go func() { gs.GracefulStop(); close(stopped) }()
	select {
	case <-stopped:
	case <-sctx.Done():
		gs.Stop()
	}
	return nil
}
