// Command agentd is the host agent of the warehouse machines.
package main

import (
	"context"
	"flag"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	agentv1 "example.test/clients/gen/agent/v1"
	inventoryv1 "example.test/clients/gen/inventory/v1"
	"example.test/clients/internal/agentsvc"
	"example.test/clients/pkg/sdk"
)

var version = "dev"

func main() {
	listen := flag.String("listen", ":7443", "gRPC listen address")
	billingAddr := flag.String("billing", "dns:///billing.internal:8443", "billing service address")
	inventoryAddr := flag.String("inventory", "dns:///inventory.internal:8443", "inventory service address")
	jobsAddr := flag.String("jobs", "dns:///jobs.internal:8443", "job queue address")
	probeSKU := flag.String("probe-sku", "PROBE-0001", "SKU looked up at start-up to check the inventory path")
	logDir := flag.String("log-dir", "/var/log/wms", "directory of the unit logs served by TailLogs")
	flag.Parse()

	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	hostname, _ := os.Hostname()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM) // OK
	defer stop()

	client, err := sdk.New(sdk.Config{
		BillingAddr:   *billingAddr,
		InventoryAddr: *inventoryAddr,
		JobsAddr:      *jobsAddr,
		UserAgent:     "agentd/" + version,
	})
	if err != nil {
		log.Error("sdk", "err", err)
		os.Exit(1)
	}
	defer client.Close()

	invConn, err := grpc.NewClient(*inventoryAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Error("dial inventory", "err", err)
		os.Exit(1)
	}
	defer invConn.Close()

	if _, err := client.GetItem(ctx, *probeSKU); err != nil { // BUG: missingdeadline
		log.Warn("inventory probe failed; starting anyway", "sku", *probeSKU, "err", err)
	}

	srv := agentsvc.New(ctx, client, inventoryv1.NewInventoryServiceClient(invConn), agentsvc.Config{
		Hostname:     hostname,
		Version:      version,
		UpstreamHost: "inventory.internal",
		LogDir:       *logDir,
	}, log)

	gs := grpc.NewServer(grpc.ChainUnaryInterceptor(agentsvc.AuditInterceptor(client, log)))
	agentv1.RegisterAgentServiceServer(gs, srv)
	hs := health.NewServer()
	healthpb.RegisterHealthServer(gs, hs)

	lis, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Error("listen", "err", err)
		os.Exit(1)
	}
	go srv.ReportLoop(time.Minute) // OK
	go func() {
		<-ctx.Done()
		hs.Shutdown()
		gs.GracefulStop()
	}()
	log.Info("agent listening", "addr", lis.Addr().String(), "version", version)
	if err := gs.Serve(lis); err != nil {
		log.Error("serve", "err", err)
		os.Exit(1)
	}
}
