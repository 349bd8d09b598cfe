// Command dispatchd serves the shuttle booking, depot and rider notification APIs.
package main

import (
	"context"
	"database/sql"
	"flag"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"google.golang.org/grpc"

	paymentv1 "example.test/shapes4/gen/payment/v1"
	venuev1 "example.test/shapes4/gen/venue/v1"
	"example.test/shapes4/internal/clientx"
	"example.test/shapes4/internal/depot"
	"example.test/shapes4/internal/interceptors"
	"example.test/shapes4/internal/lifecycle"
	"example.test/shapes4/internal/riderpush"
	"example.test/shapes4/internal/rides"
	"example.test/shapes4/internal/tripstore"
)

func main() {
	var (
		grpcAddr    = flag.String("grpc", ":7070", "gRPC listen address")
		httpAddr    = flag.String("http", ":7080", "connect listen address")
		dsn         = flag.String("db", "postgres://dispatch@localhost/dispatch", "database")
		payAddr     = flag.String("payments", "payments:443", "fare provider")
		payDRAddr   = flag.String("payments-dr", "payments-dr:443", "fare provider, recovery region")
		depotAddr   = flag.String("depots", "localhost:7070", "depot service")
		smtpRelay   = flag.String("smtp", "localhost:25", "mail relay")
		callTimeout = flag.Duration("call-timeout", 5*time.Second, "cap on every incoming unary call")
	)
	flag.Parse()
	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt) // OK: main
	defer stop()
	ctx = lifecycle.Start(ctx)

	db, err := sql.Open("postgres", *dsn)
	if err != nil {
		log.Error("open db", "err", err)
		os.Exit(1)
	}
	pingCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
	err = db.PingContext(pingCtx)
	cancel()
	if err != nil {
		log.Error("ping db", "err", err)
		os.Exit(1)
	}
	st := tripstore.New(db)

	payConn, err := clientx.DialPlain(*payAddr)
	if err != nil {
		log.Error("dial payments", "err", err)
		os.Exit(1)
	}
	payDRConn, err := clientx.DialPlain(*payDRAddr)
	if err != nil {
		log.Error("dial payments dr", "err", err)
		os.Exit(1)
	}
	depotConn, err := clientx.DialPlain(*depotAddr)
	if err != nil {
		log.Error("dial depots", "err", err)
		os.Exit(1)
	}

	var draining atomic.Bool
	lim := interceptors.NewLimiter(200)
	interceptors.Setup(ctx, st)
	g := grpc.NewServer(
		grpc.ChainUnaryInterceptor(
			interceptors.Admit(draining.Load),
			interceptors.Budget(*callTimeout),
			interceptors.Throttle(lim),
			interceptors.Audit(st),
		),
		grpc.ChainStreamInterceptor(
			interceptors.StreamOpened,
			interceptors.StreamCheck(st),
			interceptors.StreamClosed(st),
		),
	)
	srv := rides.New(ctx, rides.Deps{
		Store:      st,
		Payments:   paymentv1.NewPaymentServiceClient(payConn),
		PaymentsDR: paymentv1.NewPaymentServiceClient(payDRConn),
		Zones:      venuev1.NewVenueServiceClient(depotConn),
		Log:        log,
	})
	rides.Register(g, srv)
	depot.Register(g, depot.New(db, log))
	go func() {
		if err := srv.Run(ctx); err != nil && ctx.Err() == nil {
			log.Error("sweeper", "err", err)
		}
	}()
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				lim.Refill()
			}
		}
	}()

	mux := http.NewServeMux()
	mux.Handle(riderpush.Mount(riderpush.NewHandler(st, riderpush.NewMailer(*smtpRelay, "rides@example.test"), log)))
	hs := &http.Server{Addr: *httpAddr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}

	lis, err := net.Listen("tcp", *grpcAddr)
	if err != nil {
		log.Error("listen", "err", err)
		os.Exit(1)
	}
	go func() { _ = g.Serve(lis) }()
	go func() { _ = hs.ListenAndServe() }()

	<-ctx.Done()
	draining.Store(true)
	shutdown, cancel := context.WithTimeout(context.Background(), 20*time.Second) // OK: shutdown budget in main
	defer cancel()
	_ = hs.Shutdown(shutdown)
	g.GracefulStop()
	lifecycle.Stop()
}
