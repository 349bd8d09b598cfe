// Command relayd runs the relay: the feed, export and catalog gRPC services on one port and the
// connect-go notify service on another.
package main

import (
	"context"
	"database/sql"
	"flag"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	catalogv1 "example.test/streams2/gen/catalog/v1"
	exportv1 "example.test/streams2/gen/export/v1"
	feedv1 "example.test/streams2/gen/feed/v1"
	"example.test/streams2/gen/notify/v1/notifyv1connect"
	quotav1 "example.test/streams2/gen/quota/v1"
	"example.test/streams2/internal/api"
	"example.test/streams2/internal/changelog"
	"example.test/streams2/internal/export"
	"example.test/streams2/internal/feed"
	"example.test/streams2/internal/notify"
	"example.test/streams2/internal/pubsub"
	"example.test/streams2/internal/store"
	"example.test/streams2/internal/upstream"
)

func main() {
	var (
		grpcAddr     = flag.String("grpc", ":7070", "gRPC listen address")
		httpAddr     = flag.String("http", ":7080", "connect listen address")
		dsn          = flag.String("db", "postgres://relay@localhost/relay", "database")
		quotaAddr    = flag.String("quota", "quota.platform:443", "quota service")
		metricsURL   = flag.String("metrics", "http://metrics.internal", "metrics API")
		node         = flag.String("node", hostname(), "node name in heartbeats")
		quotaTimeout = flag.Duration("quota-timeout", 2*time.Second, "budget of quota calls without a deadline")
		poll         = flag.Duration("poll", time.Second, "change-log poll interval")
	)
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	db, err := sql.Open("pgx", *dsn)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	qconn, err := grpc.Dial(*quotaAddr,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithBlock(),
		grpc.WithTimeout(3), // BUG: deadlinemath
	)
	if err != nil {
		log.Fatalf("quota service: %v", err)
	}
	defer qconn.Close()
	quotaClient := quotav1.NewQuotaServiceClient(qconn)

	bus := pubsub.NewBroker()
	defer bus.Close()
	st := store.New(db)
	journal := store.NewJournal(db)
	clog := changelog.New(db, *poll)
	quota := upstream.NewQuota(quotaClient, *quotaTimeout)
	metrics := upstream.NewMetrics(*metricsURL)

	feedSrv := feed.NewServer(ctx, bus, journal, clog, st, *node)
	exportSrv := export.NewServer(st, clog, export.NewLeases(time.Hour, 8, "settings", "tenants"), export.NewJobs(), export.NewIndexer())
	catalog := api.NewCatalog(st, journal, quota, quotaClient, metrics)

	gs := grpc.NewServer(
		grpc.ConnectionTimeout(20), // BUG: deadlinemath
		grpc.MaxConcurrentStreams(1000),
	)
	feedv1.RegisterFeedServiceServer(gs, feedSrv)
	exportv1.RegisterExportServiceServer(gs, exportSrv)
	catalogv1.RegisterCatalogServiceServer(gs, catalog)

	notifyHandler := notify.NewHandler(bus, store.NewInbox(db), store.NewCache())
	go notifyHandler.RunReceiptWriter(ctx)
	mux := http.NewServeMux()
	mux.Handle(notifyv1connect.NewNotifyServiceHandler(notifyHandler))
	hs := &http.Server{
		Addr:              *httpAddr,
		Handler:           mux,
		ReadHeaderTimeout: 5 * time.Second, // OK: has a unit
		WriteTimeout:      0,               // OK: zero, the streams are long-lived
		IdleTimeout:       2 * time.Minute,
	}

	lis, err := net.Listen("tcp", *grpcAddr)
	if err != nil {
		log.Fatal(err)
	}
	go func() {
		if err := gs.Serve(lis); err != nil {
			log.Printf("grpc: %v", err)
		}
	}()
	go func() {
		if err := hs.ListenAndServe(); err != nil && err != http.ErrServerClosed {
			log.Printf("http: %v", err)
		}
	}()

	// Operators announce maintenance with a file the deploy tooling drops next to the binary.
	announce := time.NewTicker(30 * time.Second)
	defer announce.Stop()
	for {
		select {
		case <-ctx.Done():
			shutdown(gs, hs)
			return
		case <-announce.C:
			if b, err := os.ReadFile("ANNOUNCE"); err == nil && len(b) > 0 {
				feedSrv.Announce(string(b))
			}
		}
	}
}

func shutdown(gs *grpc.Server, hs *http.Server) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // OK: has a unit
	defer cancel()
	done := make(chan struct{})
	go func() {
		gs.GracefulStop()
		close(done)
	}()
	if err := hs.Shutdown(ctx); err != nil {
		log.Printf("http shutdown: %v", err)
	}
	select {
	case <-done:
	case <-ctx.Done():
		gs.Stop()
	}
}

func hostname() string {
	h, err := os.Hostname()
	if err != nil {
		return "relay"
	}
	return h
}
