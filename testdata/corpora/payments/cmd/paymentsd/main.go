// Command paymentsd serves the payment and ledger APIs.
package main

import (
	"context"
	"errors"
	"flag"
	"log"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	ledgerv1 "example.test/payments/gen/ledger/v1"
	paymentsv1 "example.test/payments/gen/payments/v1"
	"example.test/payments/internal/fraud"
	"example.test/payments/internal/ledger"
	"example.test/payments/internal/outbox"
	dbx "example.test/payments/internal/platform/db"
	"example.test/payments/internal/server"
)

func main() {
	var (
		listen       = flag.String("listen", ":8443", "gRPC listen address")
		driver       = flag.String("db-driver", "pgx", "database/sql driver name")
		dsn          = flag.String("dsn", os.Getenv("PAYMENTS_DSN"), "database DSN")
		riskAddr     = flag.String("risk", "risk.internal:9000", "risk service address")
		ledgerAddr   = flag.String("ledger", "localhost:8443", "ledger service address (usually this process)")
		vendorURL    = flag.String("fraud-vendor", "https://api.screening.example", "fraud vendor base URL")
		acquirerURL  = flag.String("acquirer", "https://acquirer.example", "acquirer base URL")
		fxURL        = flag.String("fx", "https://fx.internal/rate", "FX rate endpoint")
		renderer     = flag.String("receipt-renderer", "/usr/local/bin/render-receipt", "receipt renderer binary")
		warm         = flag.String("warm-merchants", "", "comma-separated merchants whose risk rules are preloaded")
		panicURL     = flag.String("panic-report", "", "error tracker endpoint")
		reconcileAge = flag.Duration("reconcile-age", 7*24*time.Hour, "age after which uncaptured authorizations are reported")
	)
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM) // OK
	defer stop()

	pool, err := dbx.Open(*driver, *dsn)
	if err != nil {
		log.Fatalf("database: %v", err)
	}
	defer pool.Close()
	if err := dbx.Healthy(pool); err != nil { // OK
		log.Fatalf("database not healthy: %v", err)
	}
	repo := ledger.NewRepo(pool)
	if err := repo.Migrate(); err != nil {
		log.Fatal(err)
	}

	riskConn, err := grpc.NewClient(*riskAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatalf("risk conn: %v", err)
	}
	defer riskConn.Close()
	risk := fraud.NewRisk(riskConn, 800*time.Millisecond)
	for _, m := range strings.Split(*warm, ",") {
		if m == "" {
			continue
		}
		if err := risk.WarmRules(m); err != nil { // OK
			log.Printf("warm risk rules for %s: %v", m, err)
		}
	}
	defaults, err := risk.Rules(ctx, "default") // BUG: missingdeadline
	if err != nil {
		log.Fatalf("default risk rules: %v", err)
	}

	ledgerConn, err := grpc.NewClient(*ledgerAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatalf("ledger conn: %v", err)
	}
	defer ledgerConn.Close()

	ob := outbox.NewWriter(pool, 3*time.Second)
	relay := &outbox.Relay{
		W:     ob,
		Every: 2 * time.Second,
		Batch: 200,
		Publish: func(ctx context.Context, ev outbox.Event) error {
			log.Printf("event %s %s %s", ev.Topic, ev.Key, ev.Payload)
			return nil
		},
	}
	go func() {
		if err := relay.Run(ctx); err != nil && !errors.Is(err, context.Canceled) { // OK
			log.Printf("outbox relay stopped: %v", err)
		}
	}()

	payments := server.NewPaymentServer(ctx, server.PaymentConfig{
		Store:           repo,
		DB:              pool,
		Fraud:           fraud.NewClient(*vendorURL, os.Getenv("FRAUD_VENDOR_KEY"), 4*time.Second),
		Risk:            risk,
		Ledger:          ledgerv1.NewLedgerServiceClient(ledgerConn),
		Outbox:          ob,
		AcquirerURL:     *acquirerURL,
		FXURL:           *fxURL,
		ReceiptRenderer: *renderer,
		BlockScore:      defaults.GetBlockThreshold(),
		PollEvery:       time.Second,
	})
	stopSweeper := payments.StartExpirySweeper(time.Minute)
	defer stopSweeper()
	ledgerSrv := server.NewLedgerServer(ctx, repo, pool, ob)

	auth, err := server.NewAuthenticator(ctx, pool)
	if err != nil {
		log.Fatal(err)
	}
	throttle := server.NewThrottle(50, 100, 2*time.Second)
	reporter := &server.PanicReporter{URL: *panicURL}

	srv := grpc.NewServer(
		grpc.ChainUnaryInterceptor(
			server.UnaryRecover(reporter),
			server.UnaryLogging,
			server.UnaryTimeout(30*time.Second),
			server.Readiness(pool),
			auth.Unary,
			throttle.Unary,
			server.UnaryAudit(ob),
		),
		grpc.ChainStreamInterceptor(
			server.StreamRecover(reporter),
			server.StreamLogging,
			auth.Stream,
			throttle.Stream,
		),
	)
	paymentsv1.RegisterPaymentServiceServer(srv, payments)
	ledgerv1.RegisterLedgerServiceServer(srv, ledgerSrv)
	hs := health.NewServer()
	healthpb.RegisterHealthServer(srv, hs)

	rec := &server.Reconciler{Repo: repo, Risk: risk, Every: 5 * time.Minute, Age: *reconcileAge}
	go func() {
		if err := rec.Run(ctx); err != nil && !errors.Is(err, context.Canceled) { // OK
			log.Printf("reconciler stopped: %v", err)
		}
	}()

	lis, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Fatalf("listen: %v", err)
	}
	go func() {
		<-ctx.Done()
		hs.Shutdown()
		srv.GracefulStop()
	}()
	log.Printf("paymentsd listening on %s", lis.Addr())
	if err := srv.Serve(lis); err != nil {
		log.Fatalf("serve: %v", err)
	}

	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // OK
	defer cancel()
	if err := ob.Flush(shutdownCtx); err != nil {
		log.Printf("outbox flush: %v", err)
	}
	if err := payments.Close(); err != nil {
		log.Printf("close: %v", err)
	}
}
