// Command searchd serves search.v1.SearchService.
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
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	searchv1 "example.test/mature/gen/search/v1"
	"example.test/mature/internal/platform/rpcx"
	"example.test/mature/internal/search"
)

func main() {
	addr := flag.String("addr", ":7002", "listen address")
	dsn := flag.String("dsn", os.Getenv("SEARCH_DSN"), "Postgres DSN")
	compactTool := flag.String("compact-tool", "", "segment compactor binary")
	verifyTool := flag.String("verify-tool", "", "segment verifier binary")
	indexDir := flag.String("index-dir", "/var/lib/search", "on-disk index directory")
	flag.Parse()
	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM) // OK
	defer stop()

	db, err := sql.Open("pgx", *dsn)
	if err != nil {
		log.Error("open database", "err", err)
		os.Exit(1)
	}
	defer db.Close()
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	err = db.PingContext(pctx) // OK
	cancel()
	if err != nil {
		log.Error("database not reachable", "err", err)
		os.Exit(1)
	}

	srv, err := search.NewServer(db, log, search.Config{ // OK
		LoadTimeout:    time.Minute,
		QueryBudget:    250 * time.Millisecond,
		SuggestBudget:  40 * time.Millisecond,
		CompactEvery:   5 * time.Minute,
		CompactBackoff: 30 * time.Second,
		CompactTool:    *compactTool,
		VerifyTool:     *verifyTool,
		IndexDir:       *indexDir,
	})
	if err != nil {
		log.Error("start search server", "err", err)
		os.Exit(1)
	}
	go srv.RunCompactor(ctx) // OK

	gs := grpc.NewServer(
		grpc.ChainUnaryInterceptor(rpcx.UnaryRecover(log), rpcx.UnaryLogging(log), rpcx.UnaryDeadlineCap(30*time.Second)),
		grpc.ChainStreamInterceptor(rpcx.StreamLogging(log)),
	)
	searchv1.RegisterSearchServiceServer(gs, srv)
	hs := health.NewServer()
	healthpb.RegisterHealthServer(gs, hs)

	lis, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Error("listen", "err", err)
		os.Exit(1)
	}
	go func() {
		<-ctx.Done()
		hs.Shutdown()
		gs.GracefulStop()
	}()
	if err := gs.Serve(lis); err != nil {
		log.Error("serve", "err", err)
	}
	search.Shutdown()
}
