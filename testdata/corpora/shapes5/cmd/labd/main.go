// Command labd serves the lab order API, the bench API and the result
// notifications.
package main

import (
	"context"
	"database/sql"
	"flag"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"google.golang.org/grpc"

	"example.test/shapes5/gen/notify/v1/notifyv1connect"
	paymentv1 "example.test/shapes5/gen/payment/v1"
	venuev1 "example.test/shapes5/gen/venue/v1"
	"example.test/shapes5/internal/alerts"
	"example.test/shapes5/internal/clientx"
	"example.test/shapes5/internal/instruments"
	"example.test/shapes5/internal/interceptors"
	"example.test/shapes5/internal/lifecycle"
	"example.test/shapes5/internal/orders"
	"example.test/shapes5/internal/specimens"
)

func main() {
	var (
		addr     = flag.String("addr", ":8443", "gRPC listen address")
		httpAddr = flag.String("http", ":8080", "connect listen address")
		dsn      = flag.String("dsn", "postgres://lab@localhost/lab", "database")
		insurer  = flag.String("insurer", "claims.internal:443", "insurer claims service")
		insDR    = flag.String("insurer-dr", "claims-dr.internal:443", "insurer claims service, DR site")
		benches  = flag.String("benches", "localhost:8443", "bench API")
		sites    = flag.String("sites", "main,north", "lab sites")
		hook     = flag.String("directory-hook", "https://directory.internal/hook", "directory webhook")
	)
	flag.Parse()

	sigCtx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM) // OK: main is no request scope
	defer stop()
	ctx := lifecycle.Start(sigCtx)
	defer lifecycle.Stop()

	db, err := sql.Open("postgres", *dsn)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	pctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // OK: main
	if err := db.PingContext(pctx); err != nil {
		log.Printf("database not reachable yet: %v", err)
	}
	cancel()

	insConn, err := clientx.DialPlain(*insurer)
	if err != nil {
		log.Fatal(err)
	}
	defer insConn.Close()
	drConn, err := clientx.DialPlain(*insDR)
	if err != nil {
		log.Fatal(err)
	}
	defer drConn.Close()
	benchConn, err := clientx.Dial(*benches)
	if err != nil {
		log.Fatal(err)
	}
	defer benchConn.Close()

	st := specimens.New(db)
	interceptors.Setup(st)
	g := grpc.NewServer(
		grpc.ChainUnaryInterceptor(
			interceptors.Budget(30*time.Second),
			interceptors.Penalty(func(string) bool { return false }, 250*time.Millisecond),
			interceptors.Trace(st),
			interceptors.Custody,
		),
		grpc.ChainStreamInterceptor(interceptors.StreamGuard, interceptors.StreamLedger(st)),
	)
	srv := orders.New(ctx,
		db,
		paymentv1.NewPaymentServiceClient(insConn),
		paymentv1.NewPaymentServiceClient(drConn),
		venuev1.NewVenueServiceClient(benchConn),
		strings.Split(*sites, ","),
	)
	orders.Register(g, srv)
	instruments.Register(g, instruments.New(db))
	go srv.Run(ctx)
	results := make(chan orders.ResultMsg, 64)
	go srv.ConsumeResults(ctx, results)

	mux := http.NewServeMux()
	mux.Handle(notifyv1connect.NewNotifyServiceHandler(alerts.New(db, &http.Client{Timeout: 10 * time.Second}, *hook)))
	hs := &http.Server{Addr: *httpAddr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		if err := hs.ListenAndServe(); err != nil && err != http.ErrServerClosed {
			log.Print(err)
		}
	}()

	lis, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	go func() {
		<-ctx.Done()
		g.GracefulStop()
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // OK: shutdown in main
		defer cancel()
		_ = hs.Shutdown(sctx)
	}()
	if err := g.Serve(lis); err != nil {
		log.Fatal(err)
	}
}
