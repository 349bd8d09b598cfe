// Command inventoryd serves inventory.v1.InventoryService.
package main

import (
	"bytes"
	"context"
	"database/sql"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	inventoryv1 "example.test/mature/gen/inventory/v1"
	"example.test/mature/gen/pricing/v1/pricingv1connect"
	"example.test/mature/internal/audit"
	"example.test/mature/internal/clients/searchclient"
	"example.test/mature/internal/events"
	"example.test/mature/internal/inventory"
	"example.test/mature/internal/platform/authn"
	"example.test/mature/internal/platform/kv"
	"example.test/mature/internal/platform/rpcx"
	"example.test/mature/internal/store"
)

type options struct {
	addr, dsn, searchAddr, pricingURL, cacheAddr, keysURL, supplierURL, busURL string
}

func main() {
	var o options
	flag.StringVar(&o.addr, "addr", ":7001", "listen address")
	flag.StringVar(&o.dsn, "dsn", os.Getenv("INVENTORY_DSN"), "Postgres DSN")
	flag.StringVar(&o.searchAddr, "search", "localhost:7002", "search service address")
	flag.StringVar(&o.pricingURL, "pricing", "http://localhost:7003", "pricing service base URL")
	flag.StringVar(&o.cacheAddr, "cache", "localhost:7400", "cache node address")
	flag.StringVar(&o.keysURL, "keys", "http://localhost:7500/keys", "token signing keys URL")
	flag.StringVar(&o.supplierURL, "supplier", "", "supplier API base URL (empty disables)")
	flag.StringVar(&o.busURL, "bus", "http://localhost:7600/publish", "message bus publish URL")
	flag.Parse()

	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	if err := run(o, log); err != nil {
		log.Error("inventoryd exiting", "err", err)
		os.Exit(1)
	}
}

func run(o options, log *slog.Logger) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM) // OK
	defer stop()

	db, err := sql.Open("pgx", o.dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := waitForDB(db, 30*time.Second); err != nil {
		return fmt.Errorf("database not reachable: %w", err)
	}

	conn, err := grpc.NewClient(o.searchAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer conn.Close()
	// Every write path indexes; refuse to start while search is not serving.
	hctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	_, err = healthpb.NewHealthClient(conn).Check(hctx, &healthpb.HealthCheckRequest{Service: "search.v1.SearchService"}) // OK
	cancel()
	if err != nil {
		return fmt.Errorf("search health check: %w", err)
	}

	httpClient := &http.Client{Timeout: 10 * time.Second}
	verifier := authn.NewVerifier(o.keysURL, log)
	publisher := events.NewPublisher(db, busSender(httpClient, o.busURL), log)
	srv := inventory.NewServer(inventory.Config{SupplierURL: o.supplierURL}, inventory.Deps{ // OK
		Store:  store.New(db, log),
		Audit:  audit.NewWriter(db, log, 2*time.Second),
		Events: publisher,
		Search: searchclient.New(conn),
		Prices: pricingv1connect.NewPricingServiceClient(httpClient, o.pricingURL),
		Cache:  kv.New(o.cacheAddr, 50*time.Millisecond),
		HTTP:   httpClient,
		Log:    log,
	})

	warmCtx, cancelWarm := context.WithTimeout(ctx, 30*time.Second)
	if err := srv.Warm(warmCtx); err != nil { // OK
		log.Warn("cache warm-up incomplete", "err", err)
	}
	cancelWarm()

	probe := func(ctx context.Context, req any) (any, error) {
		return srv.ListItems(ctx, req.(*inventoryv1.ListItemsRequest))
	}
	if err := rpcx.Probe(probe, &inventoryv1.ListItemsRequest{Warehouse: "probe", PageSize: 1}, 2*time.Second); err != nil { // OK
		return fmt.Errorf("start-up probe: %w", err)
	}

	go verifier.Run(ctx, 5*time.Minute) // OK
	go publisher.Run(ctx, time.Second)  // OK
	srv.Start()

	gs := grpc.NewServer(
		grpc.ChainUnaryInterceptor(
			rpcx.UnaryRecover(log),
			rpcx.UnaryLogging(log),
			rpcx.UnaryDeadlineCap(10*time.Second),
			rpcx.UnaryAuth(verifier),
		),
		grpc.ChainStreamInterceptor(rpcx.StreamLogging(log), rpcx.StreamAuth(verifier)),
	)
	inventoryv1.RegisterInventoryServiceServer(gs, srv)
	hs := health.NewServer()
	healthpb.RegisterHealthServer(gs, hs)
	hs.SetServingStatus("inventory.v1.InventoryService", healthpb.HealthCheckResponse_SERVING)

	lis, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	errc := make(chan error, 1)
	go func() { errc <- gs.Serve(lis) }()
	log.Info("inventoryd serving", "addr", lis.Addr().String())

	select {
	case <-ctx.Done():
	case err := <-errc:
		return err
	}
	hs.Shutdown()
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
	return srv.Close()
}

// waitForDB pings db until it answers or budget is spent.
func waitForDB(db *sql.DB, budget time.Duration) error {
	deadline := time.Now().Add(budget)
	for {
		err := db.Ping() // OK
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(500 * time.Millisecond) // OK
	}
}

// busSender posts outbox payloads to the message bus.
func busSender(c *http.Client, url string) events.Sender {
	return func(ctx context.Context, payload []byte) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(payload))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode >= 300 {
			return fmt.Errorf("bus: %s", resp.Status)
		}
		return nil
	}
}
