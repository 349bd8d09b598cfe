// Command feedd runs the feed, catalog and notification services.
package main

import (
	"context"
	"errors"
	"flag"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/keepalive"

	quotav1 "example.test/streams/gen/quota/v1"
	"example.test/streams/internal/budget"
	"example.test/streams/internal/catalog"
	"example.test/streams/internal/feed"
	"example.test/streams/internal/httpx"
	"example.test/streams/internal/notify"
	"example.test/streams/internal/pubsub"
	"example.test/streams/internal/store"
)

func main() {
	var (
		grpcAddr  = flag.String("grpc", ":8443", "gRPC listen address")
		httpAddr  = flag.String("http", ":8080", "connect-go listen address")
		adminAddr = flag.String("admin", ":9090", "admin listen address")
		dsn       = flag.String("dsn", os.Getenv("FEED_DSN"), "Postgres DSN")
		quotaAddr = flag.String("quota", "quota.platform.svc:443", "QuotaService address")
		replica   = flag.Bool("replica", false, "running against a read replica (no LISTEN/NOTIFY)")
		readTO    = flag.Duration("admin-read-timeout", 10*time.Second, "admin server read timeout")
	)
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()

	st, err := store.Open(*dsn)
	if err != nil {
		log.Fatalf("feedd: open store: %v", err)
	}
	defer st.Close()
	journal := store.NewJournal(st.DB())
	go journal.Run(ctx)

	bus := pubsub.New()
	defer bus.Close()

	quotaConn, err := grpc.NewClient(*quotaAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatalf("feedd: quota client: %v", err)
	}
	defer quotaConn.Close()

	host, _ := os.Hostname()
	feedSrv := feed.New(bus, st, journal, feed.Options{Node: host, PollOnly: *replica})
	go feedSrv.Run(ctx)

	cat := catalog.New(st, journal, quotav1.NewQuotaServiceClient(quotaConn), bus)
	go func() {
		err := budget.Retry(ctx, 10, cat.WarmCache)
		if err != nil {
			log.Printf("feedd: catalog cache stays cold: %v", err)
		}
	}()

	gs := grpc.NewServer(
		grpc.ConnectionTimeout(120), // BUG: deadlinemath
		grpc.KeepaliveParams(keepalive.ServerParameters{Time: 2 * time.Minute, Timeout: 20 * time.Second}),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: 30 * time.Second, PermitWithoutStream: true}),
	)
	feedSrv.Register(gs)
	cat.Register(gs)

	receipts := notify.NewReceiptWriter(st.DB())
	go receipts.Run(ctx, 200*time.Millisecond)
	mux := http.NewServeMux()
	notify.NewHandler(notify.NewInbox(st.DB()), notify.NewPreferenceStore(st.DB()), notify.NewHub(), receipts).
		Mount(mux, connect.WithReadMaxBytes(1<<20))
	var protocols http.Protocols
	protocols.SetHTTP1(true)
	protocols.SetUnencryptedHTTP2(true)
	hs := &http.Server{
		Addr:              *httpAddr,
		Handler:           mux,
		Protocols:         &protocols,
		ReadHeaderTimeout: 10 * time.Second, // OK: has a unit
		IdleTimeout:       2 * time.Minute,
	}

	adminMux := http.NewServeMux()
	adminMux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	admin := httpx.AdminServer(*adminAddr, adminMux, httpx.Config{ReadTimeout: *readTO, WriteTimeout: 30 * time.Second})

	lis, err := net.Listen("tcp", *grpcAddr)
	if err != nil {
		log.Fatalf("feedd: listen: %v", err)
	}
	go func() {
		if err := gs.Serve(lis); err != nil {
			log.Printf("feedd: grpc: %v", err)
		}
	}()
	go func() {
		if err := hs.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Printf("feedd: http: %v", err)
		}
	}()
	go func() {
		if err := admin.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Printf("feedd: admin: %v", err)
		}
	}()

	<-ctx.Done()
	log.Printf("feedd: draining")
	feedSrv.BeginDrain()

	// Kubernetes kills us 30s after SIGTERM; stop hard a little before that.
	hardStop := time.AfterFunc(25, gs.Stop) // BUG: deadlinemath
	defer hardStop.Stop()
	gs.GracefulStop()

	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5e9) // OK: 5e9 is five seconds in nanoseconds, written on purpose
	defer cancel()
	_ = hs.Shutdown(shutdownCtx)
	_ = admin.Shutdown(shutdownCtx)
}
