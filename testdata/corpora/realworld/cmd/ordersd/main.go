// Command ordersd serves the OrdersService API.
package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	_ "github.com/lib/pq"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go"
	"github.com/redis/go-redis/v9"
	"github.com/segmentio/kafka-go"
	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	ordersv1 "example.test/realworld/gen/orders/v1"
	"example.test/realworld/internal/api"
	"example.test/realworld/internal/cache"
	"example.test/realworld/internal/clients"
	"example.test/realworld/internal/events"
	"example.test/realworld/internal/store"
	"example.test/realworld/internal/telemetry"
)

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

func envDuration(key string, def time.Duration) time.Duration {
	if d, err := time.ParseDuration(os.Getenv(key)); err == nil {
		return d
	}
	return def
}

func main() {
	log := zap.Must(zap.NewProduction())
	defer func() { _ = log.Sync() }()
	if err := run(log); err != nil {
		log.Fatal("ordersd stopped", zap.Error(err))
	}
}

// featureFlags are fetched once at start-up from the flag service.
type featureFlags struct {
	SampleRatio float64 `json:"trace_sample_ratio"`
	RateLimit   int     `json:"rate_limit_per_second"`
}

func loadFlags(url string) featureFlags {
	flags := featureFlags{SampleRatio: 0.05, RateLimit: 50}
	resp, err := http.Get(url) // OK
	if err != nil {
		return flags
	}
	defer resp.Body.Close()
	_ = json.NewDecoder(resp.Body).Decode(&flags)
	return flags
}

func run(log *zap.Logger) error {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM) // OK
	defer stop()

	flags := loadFlags(envOr("FLAGS_URL", "http://flags.internal/ordersd.json"))
	shutdownTracing, err := telemetry.Setup(ctx, "ordersd", flags.SampleRatio)
	if err != nil {
		return err
	}
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // OK
		defer cancel()
		_ = shutdownTracing(sctx)
	}()

	// Everything below must be reachable within 15s or the pod is restarted.
	startCtx, cancelStart := context.WithTimeout(context.Background(), 15*time.Second) // OK
	defer cancelStart()

	pool, err := pgxpool.New(startCtx, envOr("DATABASE_URL", "postgres://orders@localhost:5432/orders"))
	if err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	defer pool.Close()
	if err := pool.Ping(startCtx); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}

	rdb := redis.NewClient(&redis.Options{
		Addr:         envOr("REDIS_ADDR", "localhost:6379"),
		DialTimeout:  2 * time.Second,
		ReadTimeout:  500 * time.Millisecond,
		WriteTimeout: 500 * time.Millisecond,
	})
	defer rdb.Close()
	if err := rdb.Ping(context.Background()).Err(); err != nil { // OK
		return fmt.Errorf("redis: %w", err)
	}

	legacy, err := sql.Open("postgres", envOr("LEGACY_BILLING_DSN", "postgres://billing@legacy-db/billing?sslmode=disable"))
	if err != nil {
		return fmt.Errorf("legacy billing db: %w", err)
	}
	defer legacy.Close()
	if err := legacy.Ping(); err != nil { // OK
		log.Warn("legacy billing database unavailable; invoices will fail", zap.Error(err))
	}

	brokers := strings.Split(envOr("KAFKA_BROKERS", "localhost:9092"), ",")
	kconn, err := kafka.DialContext(startCtx, "tcp", brokers[0])
	if err != nil {
		return fmt.Errorf("kafka: %w", err)
	}
	if _, err := kconn.ReadPartitions(events.TopicOrders); err != nil {
		_ = kconn.Close()
		return fmt.Errorf("kafka: topic %s: %w", events.TopicOrders, err)
	}
	_ = kconn.Close()
	pub := events.NewPublisher(brokers, log)
	defer pub.Close()

	payConn, err := clients.Dial(envOr("PAYMENTS_ADDR", "payments.internal:8443"))
	if err != nil {
		return err
	}
	defer payConn.Close()
	invConn, err := clients.Dial(envOr("INVENTORY_ADDR", "inventory.internal:8443"))
	if err != nil {
		return err
	}
	defer invConn.Close()
	inventory := clients.NewInventory(invConn, log)
	if _, err := inventory.Available(startCtx, []string{"__healthcheck__"}); err != nil { // OK
		log.Warn("inventory service not answering yet", zap.Error(err))
	}

	rates, err := clients.NewShippingRates(envOr("RATES_URL", "https://rates.example.net"), os.Getenv("RATES_API_KEY"))
	if err != nil {
		return err
	}

	nc, err := nats.Connect(envOr("NATS_URL", nats.DefaultURL), nats.Name("ordersd"), nats.MaxReconnects(-1))
	if err != nil {
		return fmt.Errorf("nats: %w", err)
	}
	defer nc.Close()

	repo := store.NewRepo(pool, log)
	c := cache.New(rdb, 10*time.Minute, log)
	relay := events.NewRelay(repo, pub, log, events.RelayConfig{
		Interval:     time.Second,
		DrainTimeout: 10 * time.Second,
		Backoff:      2 * time.Second,
	})

	srv := api.NewServer(ctx, api.Deps{
		Orders:    repo,
		Cache:     c,
		Events:    pub,
		Relay:     relay,
		Payments:  clients.NewPayments(payConn, log),
		Inventory: inventory,
		Rates:     rates,
		Legacy:    legacy,
		Dialer:    &kafka.Dialer{Timeout: 5 * time.Second, DualStack: true},
		Log:       log,
	}, api.Config{
		PaymentTimeout:     envDuration("PAYMENT_TIMEOUT", 3*time.Second),
		PrimaryReadTimeout: envDuration("PRIMARY_READ_TIMEOUT", time.Second),
		InventoryTimeout:   envDuration("INVENTORY_TIMEOUT", 500*time.Millisecond),
		PollInterval:       2 * time.Second,
		ReservationTTL:     envDuration("RESERVATION_TTL", 30*time.Minute),
		WebhookTimeout:     5 * time.Second,
		MerchantWebhookURL: os.Getenv("MERCHANT_WEBHOOK_URL"),
		CarrierURL:         envOr("CARRIER_URL", "https://carrier-gateway.internal"),
		LegacyRatesURL:     envOr("LEGACY_RATES_URL", "http://rates-legacy.internal/quote"),
		InvoiceRenderer:    envOr("INVOICE_RENDERER", "/usr/local/bin/wkhtmltopdf"),
		PDFOptimizer:       os.Getenv("PDF_OPTIMIZER"),
		KafkaBroker:        brokers[0],
	})

	// The relay has a context of its own: it keeps publishing while the gRPC
	// server drains, and is stopped explicitly after GracefulStop.
	relayCtx, stopRelay := context.WithCancel(context.Background()) // OK
	defer stopRelay()
	relayDone := make(chan error, 1)
	go func() { relayDone <- relay.Run(relayCtx) }() // OK

	go srv.RunReservationSweeper(ctx, time.Minute) // BUG: missingdeadline

	listener := api.NewStockListener(ctx, nc, repo, c, log, 5*time.Second)
	if err := listener.Start(); err != nil {
		return err
	}

	authn := api.NewAuthenticator([]byte(os.Getenv("TOKEN_SIGNING_KEY")), c)
	gs := grpc.NewServer(api.ServerOptions(log, authn, c, repo)...)
	ordersv1.RegisterOrdersServiceServer(gs, srv)
	hs := health.NewServer()
	healthpb.RegisterHealthServer(gs, hs)

	lis, err := net.Listen("tcp", envOr("LISTEN_ADDR", ":8443"))
	if err != nil {
		return err
	}
	serveErr := make(chan error, 1)
	go func() { serveErr <- gs.Serve(lis) }()
	log.Info("ordersd listening", zap.String("addr", lis.Addr().String()))

	select {
	case <-ctx.Done():
	case err := <-serveErr:
		stopRelay()
		return err
	}
	log.Info("shutting down")
	hs.Shutdown()
	listener.Stop()
	gs.GracefulStop()
	if err := srv.Close(); err != nil {
		log.Warn("close server", zap.Error(err))
	}
	stopRelay()
	return <-relayDone
}
