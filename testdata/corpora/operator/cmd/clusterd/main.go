// Command clusterd is the cluster manager's control plane: it serves the
// ClusterService API on every replica and runs the controllers on the leader.
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	_ "github.com/lib/pq"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"example.test/operator/internal/authn"
	"example.test/operator/internal/grpcmw"
	"example.test/operator/internal/leader"
	"example.test/operator/internal/manager"
	"example.test/operator/internal/nodeagent"
	"example.test/operator/internal/store"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "clusterd:", err)
		os.Exit(1)
	}
}

func run() error {
	var (
		listen   = flag.String("listen", ":7443", "API listen address")
		dsn      = flag.String("db", os.Getenv("CLUSTERD_DB"), "PostgreSQL DSN")
		identity = flag.String("id", hostname(), "leader-election identity")
		workers  = flag.Int("workers", 8, "workers per controller")
		warm     = flag.String("warm-images", "", "comma-separated images to pull on every node at start-up")
	)
	flag.Parse()
	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM) // OK: main
	defer stop()

	db, err := sql.Open("postgres", *dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second) // OK
	err = db.PingContext(pctx)                               // OK
	cancel()
	if err != nil {
		return fmt.Errorf("database: %w", err)
	}
	st := store.New(db)

	pool := nodeagent.NewPool(nodeagent.Options{
		CallTimeout: 10 * time.Second,
		ExecTimeout: 2 * time.Minute,
		DialOptions: []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())},
	})
	defer pool.Close()

	mgr := manager.New(manager.Config{
		Workers:           *workers,
		SyncTimeout:       time.Minute,
		ResyncPeriod:      30 * time.Second,
		SweepInterval:     5 * time.Minute,
		NodeGracePeriod:   5 * time.Minute,
		NodeSettle:        3 * time.Second,
		StaleNodeAfter:    24 * time.Hour,
		EventRetention:    7 * 24 * time.Hour,
		OperationTTL:      time.Hour,
		DefaultDrainGrace: 30 * time.Second,
		RestartStagger:    5 * time.Second,
		PrepullImages:     []string{"registry.internal/pause:3.9"},
	}, st, pool, log)
	mgr.Start(ctx) // OK: process ctx handed to the manager at start-up
	defer mgr.Stop()

	elector := leader.New(leader.Config{
		Lease:         "clusterd-controllers",
		Identity:      *identity,
		LeaseDuration: 15 * time.Second,
		RenewDeadline: 5 * time.Second,
		RetryPeriod:   2 * time.Second,
	}, st, leader.Callbacks{
		OnStartedLeading: mgr.RunControllers,
		OnStoppedLeading: func() {
			log.Error("lost leadership; exiting so that a clean replica takes over")
			stop()
		},
	}, log)
	go elector.Run(ctx) // OK: campaign for the life of the process

	if *warm != "" {
		go warmImages(ctx, st, pool, strings.Split(*warm, ","), log) // BUG: missingdeadline
	}

	verifier := authn.NewVerifier(db, time.Minute)
	gs := grpc.NewServer(
		grpc.ChainUnaryInterceptor(
			grpcmw.UnaryDefaultTimeout(30*time.Second),
			grpcmw.UnaryAuth(verifier),
			grpcmw.UnaryLogging(log),
		),
		grpc.ChainStreamInterceptor(grpcmw.StreamAuth(verifier)),
	)
	api := manager.NewClusterServer(mgr, db, elector, log)
	api.Register(gs)
	hs := health.NewServer()
	healthpb.RegisterHealthServer(gs, hs)

	if !api.WarmUp(time.Minute) {
		log.Warn("caches not synced after a minute; serving anyway")
	}

	lis, err := net.Listen("tcp", *listen)
	if err != nil {
		return err
	}
	go func() {
		<-ctx.Done()
		hs.Shutdown()
		gs.GracefulStop()
	}()
	log.Info("serving", "addr", lis.Addr().String(), "id", *identity)
	return gs.Serve(lis)
}

// warmImages pulls images on every registered node, so that the first
// workloads after a fresh install start quickly.
func warmImages(ctx context.Context, st *store.Store, pool *nodeagent.Pool, images []string, log *slog.Logger) {
	lctx, cancel := context.WithTimeout(ctx, 30*time.Second) // OK
	nodes, err := st.ListNodes(lctx)                         // OK
	cancel()
	if err != nil {
		log.Warn("warm images: list nodes", "err", err)
		return
	}
	for _, n := range nodes {
		c, err := pool.For(n.Name, n.Address)
		if err != nil {
			continue
		}
		for _, img := range images {
			if _, err := c.PullImage(ctx, strings.TrimSpace(img)); err != nil {
				log.Warn("warm images", "node", n.Name, "image", img, "err", err)
			}
		}
	}
}

func hostname() string {
	h, _ := os.Hostname()
	return h
}
