// Command ledgerd serves the LedgerSync API.
package main

import (
	"context"
	"database/sql"
	"flag"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	billingv1 "example.test/clients/gen/billing/v1"
	ledgerv1 "example.test/clients/gen/ledger/v1"
	"example.test/clients/internal/ledgersync"
	"example.test/clients/pkg/sdk"
)

func main() {
	listen := flag.String("listen", ":7600", "gRPC listen address")
	driver := flag.String("db-driver", "pgx", "database/sql driver name (registered by the build)")
	dsn := flag.String("db", "postgres://ledger@localhost/ledger", "ledger database")
	billingAddr := flag.String("billing", "dns:///billing.internal:8443", "billing service address")
	inventoryAddr := flag.String("inventory", "dns:///inventory.internal:8443", "inventory service address")
	jobsAddr := flag.String("jobs", "dns:///jobs.internal:8443", "job queue address")
	flag.Parse()

	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM) // OK
	defer stop()
	ledgersync.SetServerContext(ctx)

	db, err := sql.Open(*driver, *dsn)
	if err != nil {
		log.Error("open db", "err", err)
		os.Exit(1)
	}
	defer db.Close()
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	err = db.PingContext(pctx)
	cancel()
	if err != nil {
		log.Error("db not reachable", "err", err)
		os.Exit(1)
	}

	client, err := sdk.New(sdk.Config{
		BillingAddr:   *billingAddr,
		InventoryAddr: *inventoryAddr,
		JobsAddr:      *jobsAddr,
		UserAgent:     "ledgerd",
	})
	if err != nil {
		log.Error("sdk", "err", err)
		os.Exit(1)
	}
	defer client.Close()

	billingConn, err := grpc.NewClient(*billingAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Error("dial billing", "err", err)
		os.Exit(1)
	}
	defer billingConn.Close()

	srv, err := ledgersync.New(ctx, db, client, billingv1.NewBillingServiceClient(billingConn), log) // OK
	if err != nil {
		log.Error("init", "err", err)
		os.Exit(1)
	}

	hostname, _ := os.Hostname()
	if _, err := client.EnqueueJob(ctx, "ledger-started", []byte(hostname)); err != nil { // BUG: missingdeadline
		log.Warn("start-up not announced", "err", err)
	}

	gs := grpc.NewServer()
	ledgerv1.RegisterLedgerSyncServer(gs, srv)
	lis, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Error("listen", "err", err)
		os.Exit(1)
	}
	go srv.CompactLoop(time.Hour) // OK
	go func() {
		<-ctx.Done()
		gs.GracefulStop()
	}()
	log.Info("ledgerd listening", "addr", lis.Addr().String())
	if err := gs.Serve(lis); err != nil {
		log.Error("serve", "err", err)
		os.Exit(1)
	}
}
