// Command shopd runs the shop gRPC services and an admin HTTP server.
package main

import (
	"context"
	"errors"
	"flag"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strconv"
	"sync"
	"syscall"
	"time"

	"google.golang.org/grpc"

	"example.test/shop/internal/admin"
	"example.test/shop/internal/batch"
	"example.test/shop/internal/catalog"
	"example.test/shop/internal/clients"
	"example.test/shop/internal/server"
	"example.test/shop/internal/store"
	"example.test/shop/internal/telemetry"
	"example.test/shop/internal/worker"
	"example.test/shop/proto/shoppb"
)

type config struct {
	addr, adminAddr, pricingAddr string
	driver, dsn                  string
	warehouseURL                 string
	pricingTimeout               time.Duration
	maxRPC                       time.Duration
	mirrorAddr, mirrorCustomer   string
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return v
	}
	return def
}

func main() {
	var cfg config
	flag.StringVar(&cfg.addr, "addr", ":7070", "gRPC listen address")
	flag.StringVar(&cfg.adminAddr, "admin", ":7071", "admin HTTP address")
	flag.StringVar(&cfg.pricingAddr, "pricing", "localhost:7070", "pricing service address")
	flag.StringVar(&cfg.driver, "driver", "pgx", "database/sql driver")
	flag.StringVar(&cfg.dsn, "dsn", "", "database DSN (empty: in-memory)")
	flag.StringVar(&cfg.warehouseURL, "warehouse", "http://warehouse.internal", "warehouse base URL")
	flag.StringVar(&cfg.mirrorAddr, "mirror", "", "peer region to mirror order events from")
	flag.StringVar(&cfg.mirrorCustomer, "mirror-customer", "", "customer whose events are mirrored")
	flag.DurationVar(&cfg.maxRPC, "max-rpc", 10*time.Second, "upper bound on any unary RPC")
	flag.Parse()
	cfg.pricingTimeout = time.Duration(envInt("PRICING_TIMEOUT_MS", 300)) // BUG: deadlinemath — B7: milliseconds read into a Duration (300ns)

	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, log, cfg); err != nil {
		log.Error("shopd exited", "err", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, log *slog.Logger, cfg config) error {
	var st store.Store
	if cfg.dsn != "" {
		sq, err := openWithRetry(ctx, log, cfg.driver, cfg.dsn)
		if err != nil {
			return err
		}
		st = sq
	} else {
		st = store.NewMemory([]store.Product{
			{SKU: "tee-1", Name: "Gopher tee", Category: "apparel", PriceCents: 2000, Stock: 50},
			{SKU: "mug-1", Name: "Gopher mug", Category: "kitchen", PriceCents: 1200, Stock: 20},
		})
	}
	defer st.Close()

	ctx, cancelRun := context.WithCancel(ctx)
	defer cancelRun()

	conns := clients.NewConnCache()
	defer conns.Close()
	pricing := clients.NewPricing(conns, cfg.pricingAddr, cfg.pricingTimeout)

	meter := telemetry.NewMemMeter()
	tracer := telemetry.NewTracer(log)
	pool := worker.New(ctx, 4, 256, log)
	audit := batch.New(100, 2*time.Second, st.SaveAudit)
	refresher := catalog.NewRefresher(st, 30*time.Second, log)

	core := server.NewCore(ctx, server.Deps{
		Store:        st,
		Pricing:      pricing,
		Log:          log,
		Tracer:       tracer,
		Meter:        meter,
		Submit:       func(job func(context.Context)) bool { return pool.TrySubmit(job) },
		Audit:        audit,
		Refresher:    refresher,
		WarehouseURL: cfg.warehouseURL,
		PollEvery:    time.Second,
	})

	gs := grpc.NewServer(
		grpc.ChainUnaryInterceptor(server.UnaryObserve(log, meter), server.UnaryDeadlineCap(cfg.maxRPC)),
		grpc.ChainStreamInterceptor(server.StreamTrace(tracer, log)),
	)
	shoppb.RegisterCatalogServer(gs, &server.CatalogService{Core: core})
	shoppb.RegisterOrdersServer(gs, &server.OrderService{Core: core})
	shoppb.RegisterPricingServer(gs, &server.PricingService{Core: core})

	var wg sync.WaitGroup
	wg.Go(func() { refresher.Run(ctx) })
	wg.Go(func() { audit.Run(ctx) })
	wg.Go(func() {
		meter.Export(ctx, 15*time.Second, func(ctx context.Context, snap map[string]int64) error {
			log.InfoContext(ctx, "metrics", "counters", snap)
			return nil
		})
	})
	adm := admin.New(cfg.adminAddr, st, refresher)
	wg.Go(func() {
		if err := adm.Run(ctx); err != nil {
			log.Error("admin server", "err", err)
		}
	})

	if cfg.mirrorAddr != "" {
		cc, err := conns.Get(cfg.mirrorAddr)
		if err != nil {
			return err
		}
		pctx, pcancel := context.WithTimeout(ctx, 3*time.Second)
		err = clients.Probe(pctx, cc)
		pcancel()
		if err != nil {
			log.Warn("mirror peer not answering yet", "addr", cfg.mirrorAddr, "err", err)
		}
		wg.Go(func() {
			_ = clients.FollowOrders(ctx, cc, cfg.mirrorCustomer, func(ev *shoppb.OrderEvent) {
				log.InfoContext(ctx, "mirrored event", "order", ev.GetOrderId(), "status", ev.GetStatus())
			})
		})
	}

	lis, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return err
	}
	serveErr := make(chan error, 1)
	go func() { serveErr <- gs.Serve(lis) }()
	log.Info("serving", "addr", cfg.addr)

	select {
	case <-ctx.Done():
	case err = <-serveErr:
	}

	stopped := make(chan struct{})
	go func() {
		gs.GracefulStop()
		close(stopped)
	}()
	select {
	case <-stopped:
	case <-time.After(15 * time.Second):
		gs.Stop()
	}
	cancelRun()

	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if cerr := core.Close(sctx); cerr != nil {
		log.Warn("core close", "err", cerr)
	}
	if perr := pool.Stop(sctx); perr != nil {
		log.Warn("worker pool stop", "err", perr)
	}
	wg.Wait()
	if errors.Is(err, grpc.ErrServerStopped) {
		return nil
	}
	return err
}

// openWithRetry waits for the database at startup (it often comes up after us
// in compose/k8s). Each attempt is bounded inside OpenSQL.
func openWithRetry(ctx context.Context, log *slog.Logger, driver, dsn string) (*store.SQL, error) {
	for attempt := 1; ; attempt++ {
		sq, err := store.OpenSQL(driver, dsn)
		if err == nil {
			return sq, nil
		}
		if attempt == 10 || ctx.Err() != nil {
			return nil, err
		}
		log.Warn("database not ready", "attempt", attempt, "err", err)
		time.Sleep(time.Duration(attempt) * 500 * time.Millisecond)
	}
}
