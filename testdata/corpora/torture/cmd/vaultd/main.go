// Command vaultd serves the vault, ledger and notify APIs.
package main

import (
	"context"
	"errors"
	"flag"
	"log"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	_ "github.com/lib/pq"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	ledgerv1 "example.test/torture/gen/ledger/v1"
	"example.test/torture/gen/notify/v1/notifyv1connect"
	vaultv1 "example.test/torture/gen/vault/v1"
	"example.test/torture/internal/audit"
	"example.test/torture/internal/ledger"
	"example.test/torture/internal/notify"
	"example.test/torture/internal/queue"
	"example.test/torture/internal/rpcmw"
	"example.test/torture/internal/store"
	"example.test/torture/internal/vault"
)

func main() {
	if err := run(); err != nil {
		log.Fatal(err)
	}
}

func run() error {
	var (
		grpcAddr   = flag.String("grpc", ":7443", "gRPC listen address")
		httpAddr   = flag.String("http", ":7080", "connect/HTTP listen address")
		dsn        = flag.String("dsn", "postgres://vault@localhost/vault?sslmode=disable", "primary database")
		replicaDSN = flag.String("replica-dsn", "postgres://vault@localhost/vault_ro?sslmode=disable", "read replica")
		ledgerAddr = flag.String("ledger", "localhost:7443", "ledger service address (for billing)")
		webhook    = flag.String("webhook", "http://localhost:9000/hooks", "notification webhook base URL")
		mirror     = flag.String("mirror", "", "optional sync mirror address")
		dataDir    = flag.String("data", "/var/lib/vault", "data directory")
		hot        = flag.String("warm", "", "comma-separated secret ids to preload")
	)
	flag.Parse()
	logger := slog.New(slog.NewJSONHandler(os.Stderr, nil))

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM) // OK
	defer stop()

	octx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	repo, err := store.Open(octx, *dsn, logger)
	if err != nil {
		return err
	}
	defer repo.Close()
	replica, err := store.Open(octx, *replicaDSN, logger)
	if err != nil {
		return err
	}
	defer replica.Close()

	ledgerConn, err := grpc.NewClient(*ledgerAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer ledgerConn.Close()
	lc := ledgerv1.NewLedgerServiceClient(ledgerConn)

	aw := audit.NewWriter(repo.DB())
	vs := vault.NewServer(vault.Config{
		Repo: repo, Replica: replica, Audit: aw, Ledger: lc, Log: logger,
		MirrorAddr: *mirror, DataDir: *dataDir,
	})
	if *hot != "" {
		if err := vs.Warm(strings.Split(*hot, ",")); err != nil {
			logger.Warn("warm cache", "err", err)
		}
	}
	ls := ledger.NewServer(repo, aw, ledger.NewOutbox(aw), logger)
	ns := notify.New(repo, *webhook, hostname(), logger)
	defer ns.Close()

	lim := rpcmw.NewLimiter(5 * time.Millisecond)
	gs := grpc.NewServer(
		grpc.ChainUnaryInterceptor(rpcmw.UnaryRecover, rpcmw.UnaryTenant(), rpcmw.UnaryRateLimit(lim)),
		grpc.ChainStreamInterceptor(rpcmw.StreamTenant(), rpcmw.StreamRateLimit(lim)),
	)
	vaultv1.RegisterVaultServiceServer(gs, vs)
	ledgerv1.RegisterLedgerServiceServer(gs, ls)

	mux := http.NewServeMux()
	path, h := notifyv1connect.NewNotifyServiceHandler(ns)
	mux.Handle(path, h)
	hs := &http.Server{Addr: *httpAddr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}

	lis, err := net.Listen("tcp", *grpcAddr)
	if err != nil {
		return err
	}
	errc := make(chan error, 2)
	go func() { errc <- gs.Serve(lis) }()
	go func() {
		if err := hs.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
			errc <- err
		}
	}()
	go func() {
		if err := vs.Run(ctx); err != nil { // BUG: missingdeadline
			logger.Error("stats worker", "err", err)
		}
	}()
	consumer := queue.NewConsumer(queue.NewPGSource(repo.DB(), time.Second), repo, logger)
	go func() { _ = consumer.Run(ctx) }()

	hctx, hcancel := context.WithTimeout(ctx, 3*time.Second)
	if _, err := lc.Balance(hctx, &ledgerv1.BalanceRequest{Account: "vault:storage"}); err != nil { // OK
		logger.Warn("ledger not reachable yet", "err", err)
	}
	hcancel()

	select {
	case <-ctx.Done():
	case err := <-errc:
		logger.Error("server", "err", err)
	}
	vault.BeginShutdown()
	sctx, scancel := context.WithTimeout(context.Background(), 15*time.Second) // OK
	defer scancel()
	_ = hs.Shutdown(sctx)
	gs.GracefulStop()
	return vs.Close()
}

func hostname() string {
	h, err := os.Hostname()
	if err != nil {
		return "unknown"
	}
	return h
}
