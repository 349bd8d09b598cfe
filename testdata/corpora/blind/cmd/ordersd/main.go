// Command ordersd serves the order, inventory and notify services.
package main

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	inventoryv1 "example.test/blind/gen/inventoryv1"
	"example.test/blind/gen/notifyv1/notifyv1connect"
	ordersv1 "example.test/blind/gen/ordersv1"
	"example.test/blind/internal/audit"
	"example.test/blind/internal/cache"
	"example.test/blind/internal/httpx"
	"example.test/blind/internal/invclient"
	"example.test/blind/internal/repo"
	"example.test/blind/internal/server"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

type kv struct{ base string }

func (k kv) Fetch(ctx context.Context, key string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, k.base+"/"+key, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b := make([]byte, 64)
	n, _ := resp.Body.Read(b)
	return b[:n], nil
}

func main() {
	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM) // OK: main
	defer stop()

	db, err := sql.Open("postgres", os.Getenv("DATABASE_URL"))
	if err != nil {
		log.Error("open db", "err", err)
		os.Exit(1)
	}
	var orders repo.OrderRepo = repo.NewMemory()
	if os.Getenv("DATABASE_URL") != "" {
		pg, err := repo.NewPG(db)
		if err != nil {
			log.Error("db", "err", err)
			os.Exit(1)
		}
		orders = pg
	}

	invConn, err := grpc.NewClient(os.Getenv("INVENTORY_ADDR"), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Error("dial inventory", "err", err)
		os.Exit(1)
	}
	defer invConn.Close()
	inv := invclient.New(invConn)

	if err := inv.Ping(context.Background()); err != nil { // BUG: missingdeadline
		log.Warn("inventory not ready", "err", err)
	}

	h := httpx.New(os.Getenv("RATES_URL"))
	w := &audit.SQLWriter{DB: db}
	srv := server.New(server.Deps{
		DB:     db,
		Orders: orders,
		Inv:    inv,
		HTTP:   h,
		Audit:  w,
		Notify: notifyv1connect.NewNotifyServiceClient(http.DefaultClient, os.Getenv("NOTIFY_URL")),
		Cache:  cache.New(kv{os.Getenv("KV_URL")}, time.Minute),
		Log:    log,
	})
	defer srv.Close()

	go srv.RunStockSync(ctx, strings.Split(os.Getenv("HOT_SKUS"), ",")) // BUG: missingdeadline

	gs := grpc.NewServer(server.ServerOptions(h, w, server.NewLimiter(100, 10*time.Millisecond))...)
	ordersv1.RegisterOrderServiceServer(gs, srv)
	inventoryv1.RegisterInventoryServiceServer(gs, server.NewInventoryServer(ctx, db))

	mux := http.NewServeMux()
	mux.Handle(notifyv1connect.NewNotifyServiceHandler(server.NewNotifier(h, w)))
	hs := &http.Server{Addr: ":8081", Handler: mux, BaseContext: func(net.Listener) context.Context { return ctx }}

	lis, err := net.Listen("tcp", ":8080")
	if err != nil {
		log.Error("listen", "err", err)
		os.Exit(1)
	}
	go func() { _ = gs.Serve(lis) }()
	go func() {
		if err := hs.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("http", "err", err)
		}
	}()

	<-ctx.Done()
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // OK: shutdown
	defer cancel()
	_ = hs.Shutdown(sctx)
	gs.GracefulStop()
}
