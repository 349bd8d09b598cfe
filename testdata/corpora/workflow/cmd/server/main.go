// Command server runs all services in one process.
package main

import (
	"context"
	"log"
	"net"
	"net/http"
	"os/signal"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"example.test/workflow/gen/admin/v1/adminv1connect"
	historyv1 "example.test/workflow/gen/history/v1"
	matchingv1 "example.test/workflow/gen/matching/v1"
	"example.test/workflow/internal/admin"
	"example.test/workflow/internal/frontend"
	"example.test/workflow/internal/history"
	"example.test/workflow/internal/matching"
	"example.test/workflow/internal/persistence"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	frontend.SetProcessContext(ctx)
	store, err := persistence.Open("postgres", "postgres://localhost/wf")
	if err != nil {
		log.Fatal(err)
	}
	hc, err := frontend.DialHistory(ctx, "localhost:7235")
	if err != nil {
		log.Fatal(err)
	}
	mc, err := grpc.NewClient("localhost:7236", grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatal(err)
	}
	shards := history.NewShardController(store, "host-1")
	q := history.NewTransferQueue(matchingv1.NewMatchingServiceClient(mc))
	q.Start()
	auth := frontend.NewAuth("https://idp.example/jwks")
	rl := frontend.NewRateLimiter()
	s := grpc.NewServer(grpc.ChainUnaryInterceptor(frontend.NamespaceInterceptor, rl.Unary, auth.Unary), grpc.StreamInterceptor(frontend.StreamLogger))
	frontend.NewHandler(ctx, historyv1.NewHistoryServiceClient(hc), matchingv1.NewMatchingServiceClient(mc), store).Register(s)
	history.NewHandler(ctx, store, shards, q).Register(s)
	matching.NewHandler(store, func(p int32) string { return "localhost:7236" }).Register(s)
	mux := http.NewServeMux()
	mux.Handle(adminv1connect.NewAdminServiceHandler(admin.New(ctx, store, shards)))
	hs := &http.Server{Addr: ":7234", Handler: mux}
	go func() { _ = hs.ListenAndServe() }()
	lis, err := net.Listen("tcp", ":7233")
	if err != nil {
		log.Fatal(err)
	}
	go func() { _ = s.Serve(lis) }()
	<-ctx.Done()
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // OK: ctxbackground — shutdown in main
	defer cancel()
	_ = hs.Shutdown(sctx)
	s.GracefulStop()
	q.Stop()
	shards.Stop()
}
