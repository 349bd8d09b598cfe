// Command telemetry runs the tracing backend: distributor, ingester, querier,
// query-frontend, store-gateway, compactor and the admin API in one process
// (or one of them, with -target).
package main

import (
	"context"
	"database/sql"
	"flag"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"example.test/telemetry/gen/ingesterpb"
	"example.test/telemetry/gen/querierpb"
	"example.test/telemetry/gen/ringpb"
	"example.test/telemetry/gen/storegatewaypb"
	"example.test/telemetry/pkg/admin"
	"example.test/telemetry/pkg/auth"
	"example.test/telemetry/pkg/clientpool"
	"example.test/telemetry/pkg/compactor"
	"example.test/telemetry/pkg/distributor"
	"example.test/telemetry/pkg/frontend"
	"example.test/telemetry/pkg/ingester"
	"example.test/telemetry/pkg/limits"
	"example.test/telemetry/pkg/objstore"
	"example.test/telemetry/pkg/querier"
	"example.test/telemetry/pkg/ring"
	"example.test/telemetry/pkg/services"
	"example.test/telemetry/pkg/storage/blockstore"
	"example.test/telemetry/pkg/storage/index"
	"example.test/telemetry/pkg/storage/wal"
	"example.test/telemetry/pkg/storegateway"
	"example.test/telemetry/pkg/util/log"
)

func main() {
	var (
		grpcAddr    = flag.String("grpc.addr", ":9095", "gRPC listen address")
		httpAddr    = flag.String("http.addr", ":3200", "HTTP (admin API) listen address")
		bucketURL   = flag.String("storage.url", "http://localhost:9000/traces", "object store endpoint")
		walDir      = flag.String("wal.dir", "/var/telemetry/wal", "WAL directory")
		dsn         = flag.String("admin.dsn", "", "admin database DSN")
		runtimeURL  = flag.String("runtime-config.url", "", "runtime config endpoint")
		instanceID  = flag.String("ring.instance-id", "", "ring instance ID")
		memberAddr  = flag.String("memberlist.join", "localhost:9095", "a member to heartbeat to")
		storeGWAddr = flag.String("store-gateway.addr", "localhost:9095", "store-gateway address")
		cacheURL    = flag.String("frontend.cache-url", "", "results cache proxy")
		tokensFlag  = flag.String("auth.tokens", "", "token=org,… for static auth")
	)
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM) // OK: ctxbackground — main, not a request scope
	defer stop()
	services.Init(ctx)

	bucket := objstore.NewHTTPBucket(*bucketURL)
	idx := index.NewReader(bucket)
	store := blockstore.New(bucket, idx)
	r := ring.New(time.Minute)
	pool := clientpool.New()
	var lim limits.Provider = &limits.Static{Defaults: limits.Limits{IngestionRateBytes: 10 << 20, IngestionBurst: 20 << 20, MaxTracesPerUser: 100000, RetentionHours: 14 * 24}}
	if *runtimeURL != "" {
		rt := limits.NewRuntime(*runtimeURL, limits.Limits{IngestionRateBytes: 10 << 20, IngestionBurst: 20 << 20})
		go rt.Run(ctx)
		lim = rt
	}

	var validator auth.Validator = auth.StaticTokens{}
	if *tokensFlag != "" {
		st := auth.StaticTokens{}
		for _, kv := range strings.Split(*tokensFlag, ",") {
			tok, org, _ := strings.Cut(kv, "=")
			st[tok] = org
		}
		validator = st
	} else if u := os.Getenv("AUTH_INTROSPECTION_URL"); u != "" {
		validator = &auth.Introspector{URL: u, Client: &http.Client{Timeout: 5 * time.Second}}
	}

	srv := grpc.NewServer(
		grpc.ChainUnaryInterceptor(auth.UnaryServerInterceptor(validator)),
		grpc.ChainStreamInterceptor(auth.StreamServerInterceptor(validator)),
	)

	memberCC, err := grpc.NewClient(*memberAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Error(ctx, "memberlist client", "err", err)
		os.Exit(1)
	}
	ml := ring.NewMemberlist(r, bucket)
	ml.Register(srv)
	lc := ring.NewLifecycler(ring.LifecyclerConfig{ID: *instanceID, Addr: *grpcAddr, NumTokens: 128, HeartbeatPeriod: 5 * time.Second, HeartbeatTimeout: 2 * time.Second}, ringpb.NewMemberlistClient(memberCC), r)

	w, err := wal.Open(*walDir)
	if err != nil {
		log.Error(ctx, "opening WAL", "err", err)
		os.Exit(1)
	}
	dist := distributor.New(distributor.Config{ReplicationFactor: 3, RejectPenalty: 100 * time.Millisecond}, r, pool, lim)
	dist.Register(srv)
	ing := ingester.New(ingester.Config{WALDir: *walDir, MaxBlockDuration: 30 * time.Minute, MaxBlockBytes: 500 << 20, FlushCheckPeriod: 10 * time.Second, FlushOpTimeout: 5 * time.Minute, ShutdownTimeout: time.Minute, ConcurrentFlushes: 4}, w, bucket, store, lim, pool)
	ing.Register(srv)
	q := querier.New(querier.Config{ReplicationFactor: 3, QueryTimeout: 30 * time.Second, TailPollInterval: time.Second}, r, pool, store, log.Default)
	q.Register(srv)
	sg := storegateway.New(bucket, objstore.NewInMem())
	sg.Register(srv)

	selfCC, err := clientpool.Dial(*grpcAddr, time.Minute)
	if err != nil {
		log.Error(ctx, "self client", "err", err)
		os.Exit(1)
	}
	var remote frontend.RemoteCache
	if *cacheURL != "" {
		remote = frontend.NewHTTPCache(*cacheURL)
	}
	fe := frontend.New(frontend.Config{SplitInterval: time.Hour, Workers: 8, MaxOutstanding: 100, MaxRetries: 2, CacheTTL: 5 * time.Minute, WarmTimeout: 30 * time.Second}, querierpb.NewQuerierClient(selfCC), remote)
	fe.Register(srv)

	comp, err := compactor.New(compactor.Config{Interval: 5 * time.Minute, CompactionTimeout: 10 * time.Minute, StoreGatewayAddr: *storeGWAddr, AdminURL: "http://localhost" + *httpAddr, MaxBlocksPerRun: 8}, store)
	if err != nil {
		log.Error(ctx, "compactor", "err", err)
		os.Exit(1)
	}
	gwCC, err := grpc.NewClient(*storeGWAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Error(ctx, "store-gateway client", "err", err)
		os.Exit(1)
	}
	retention := compactor.NewRetentionJob(storegatewaypb.NewStoreGatewayClient(gwCC), lim, func() []string {
		tenants, _ := idx.Tenants(context.Background()) // OK: ctxbackground — main's retention wiring, not a request scope
		return tenants
	}, time.Hour)
	stopRetention := make(chan struct{})
	go retention.Run(stopRetention)

	var db *sql.DB
	if *dsn != "" {
		if db, err = sql.Open("postgres", *dsn); err != nil {
			log.Error(ctx, "admin db", "err", err)
			os.Exit(1)
		}
	}
	adm := admin.New(admin.Config{RuntimeConfigURL: *runtimeURL, SweepTimeout: 10 * time.Minute}, db, ingesterpb.NewIngesterClient(selfCC), comp, store)
	mux := http.NewServeMux()
	mux.Handle(adm.Handler())
	httpSrv := &http.Server{Addr: *httpAddr, Handler: mux, ReadHeaderTimeout: 10 * time.Second}

	mgr := services.NewManager(lc, dist, ing, q, fe, comp)
	if err := mgr.StartAll(ctx); err != nil {
		os.Exit(1)
	}
	lis, err := net.Listen("tcp", *grpcAddr)
	if err != nil {
		log.Error(ctx, "listen", "err", err)
		os.Exit(1)
	}
	go func() { _ = srv.Serve(lis) }()
	go func() { _ = httpSrv.ListenAndServe() }()

	<-ctx.Done()
	close(stopRetention)
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // OK: ctxbackground — shutdown in main
	defer cancel()
	_ = httpSrv.Shutdown(shutdownCtx)
	srv.GracefulStop()
	if err := mgr.StopAll(); err != nil {
		log.Error(shutdownCtx, "stopping services", "err", err)
	}
	_ = adm.Close()
	_ = pool.Close()
	services.Shutdown()
}
