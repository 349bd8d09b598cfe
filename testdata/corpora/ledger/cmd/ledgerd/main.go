// Command ledgerd runs the ledger gRPC service.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc"

	"example.test/ledger/gen/ledgerpb"
	"example.test/ledger/gen/notifierpb"
	"example.test/ledger/internal/events"
	"example.test/ledger/internal/obs"
	"example.test/ledger/internal/outbox"
	"example.test/ledger/internal/riskclient"
	"example.test/ledger/internal/server"
	"example.test/ledger/internal/statement"
	"example.test/ledger/internal/store"
	"example.test/ledger/internal/webhook"
)

func main() {
	if err := run(); err != nil {
		slog.Error("ledgerd exited", "err", err)
		os.Exit(1)
	}
}

func openStore(ctx context.Context, dsn string) (*store.Store, error) {
	var lastErr error
	for attempt := range 5 {
		octx, cancel := context.WithTimeout(ctx, 10*time.Second)
		st, err := store.Open(octx, dsn)
		cancel()
		if err == nil {
			return st, nil
		}
		lastErr = err
		slog.Warn("store not ready", "attempt", attempt, "err", err)
		time.Sleep(time.Second)
	}
	return nil, fmt.Errorf("open store: %w", lastErr)
}

func run() error {
	var (
		grpcAddr  = flag.String("grpc", ":9090", "gRPC listen address")
		httpAddr  = flag.String("http", ":8080", "health/metrics listen address")
		dsn       = flag.String("db", "file:ledger.db?_pragma=busy_timeout(2000)", "sqlite DSN")
		riskAddr  = flag.String("risk", "dns:///risk:9090", "Risk service target")
		legacy    = flag.Bool("risk-legacy", false, "Risk endpoint needs a warm connection")
		hookURL   = flag.String("webhook", "https://partner.example/hooks/ledger", "partner webhook URL")
		graceTime = flag.Duration("grace", 20*time.Second, "graceful shutdown budget")
	)
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	st, err := openStore(ctx, *dsn)
	if err != nil {
		return err
	}
	defer st.Close()

	risk := riskclient.New(*riskAddr, *legacy)
	hook := webhook.New(*hookURL)
	fastHook := webhook.Unbounded(*hookURL)
	broker := events.NewBroker()
	gen := statement.NewGenerator(st)
	exports := statement.NewQueue(gen, hook, 64)
	relay := outbox.NewRelay(st, hook, risk, 2*time.Second)

	ledger := server.NewLedger(ctx, server.Deps{
		Store: st, Risk: risk, Hook: fastHook, Broker: broker, Gen: gen, Exports: exports,
	})
	defer ledger.Close()

	shutdownCh := make(chan struct{})
	context.AfterFunc(ctx, func() { close(shutdownCh) })

	gs := grpc.NewServer(
		grpc.ChainUnaryInterceptor(server.UnaryInterceptor),
		grpc.ChainStreamInterceptor(server.StreamInterceptor),
	)
	ledgerpb.RegisterLedgerServer(gs, ledger)
	notifierpb.RegisterNotifierServer(gs, server.NewNotifier(ledger, shutdownCh))

	mux := http.NewServeMux()
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, r *http.Request) {
		if err := st.Ping(r.Context()); err != nil {
			http.Error(w, "db: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		if err := hook.Ping(r.Context()); err != nil {
			http.Error(w, "webhook: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("/metrics", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "statement_enqueued %d\n", obs.C("statement_enqueued").Value())
		fmt.Fprintf(w, "outbox_failed %d\n", obs.C("outbox_failed").Value())
	})
	httpSrv := &http.Server{
		Addr:              *httpAddr,
		Handler:           mux,
		ReadHeaderTimeout: 5 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}

	lis, err := net.Listen("tcp", *grpcAddr)
	if err != nil {
		return err
	}

	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return gs.Serve(lis) })
	g.Go(func() error { return relay.Run(gctx) }) // BUG: missingdeadline — B9, planted at internal/outbox/relay.go:72 (the relay's lifetime ctx handed to risk.Report): reported where the deadline-less ctx is supplied
	g.Go(func() error { return exports.Run(gctx, 4) })
	g.Go(func() error {
		if err := httpSrv.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	})
	g.Go(func() error {
		<-gctx.Done()
		slog.Info("shutting down")

		// The root ctx is already cancelled here, so shutdown work needs a
		// fresh ctx with its own budget.
		sctx, cancel := context.WithTimeout(context.Background(), *graceTime)
		defer cancel()

		stopped := make(chan struct{})
		go func() {
			gs.GracefulStop()
			close(stopped)
		}()
		select {
		case <-stopped:
		case <-sctx.Done():
			slog.Warn("graceful stop timed out; forcing")
			gs.Stop()
		}
		return httpSrv.Shutdown(sctx)
	})
	return g.Wait()
}
