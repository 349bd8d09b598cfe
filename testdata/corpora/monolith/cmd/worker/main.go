// Command worker runs the scheduled jobs that do not belong in the API process: session
// reaping, payment reminders, carrier directory sync and the price-rule cache warm-up.
package main

import (
	"context"
	"database/sql"
	"flag"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	catalogv1 "example.test/monolith/gen/catalog/v1"
	shippingv1 "example.test/monolith/gen/shipping/v1"
	"example.test/monolith/internal/clients/notifyclient"
	"example.test/monolith/internal/jobs"
	"example.test/monolith/internal/platform/db"
	"example.test/monolith/internal/platform/grpcx"
)

func withDefaultTimeout(d time.Duration) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if _, ok := ctx.Deadline(); !ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, d)
			defer cancel()
		}
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}

func main() {
	var (
		dsn           = flag.String("dsn", os.Getenv("DATABASE_URL"), "Postgres DSN")
		notifyURL     = flag.String("notify", "http://monolith.internal:8080", "notification service base URL")
		shipTarget    = flag.String("shipping", "dns:///shipping.internal:9090", "shipping service target")
		catalogTarget = flag.String("catalog", "dns:///monolith.internal:9090", "catalog service target")
		country       = flag.String("country", "NL", "carrier directory country")
		syncEvery     = flag.Duration("sync-every", time.Hour, "carrier sync interval")
	)
	flag.Parse()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM) // OK
	defer stop()

	openCtx, cancel := context.WithTimeout(ctx, 10*time.Second) // OK
	database, err := db.Open(openCtx, *dsn, log)
	cancel()
	if err != nil {
		log.Error("database", "err", err)
		os.Exit(1)
	}
	defer database.Close()

	go jobs.NewSessionReaper(database.SQL, log).Run(ctx)                             // OK
	go jobs.NewReminderJob(database.SQL, notifyclient.New(*notifyURL), log).Run(ctx) // BUG: missingdeadline

	cc, err := grpcx.Dial(*catalogTarget, "monolith-worker")
	if err != nil {
		log.Error("catalog client", "err", err)
		os.Exit(1)
	}
	defer cc.Close()
	catalog := catalogv1.NewCatalogServiceClient(cc)
	if rules, err := catalog.ListPriceRules(ctx, &catalogv1.ListPriceRulesRequest{Sku: "*"}); err != nil { // OK: the same ctx, on the same path, as the finding at main.go:62, which lists this call (one finding per ctx, precision issue)
		log.Warn("price rules not warmed", "err", err)
	} else {
		log.Info("price rules warmed", "count", len(rules.GetRules()))
	}

	conn, err := grpc.NewClient(*shipTarget,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithUnaryInterceptor(withDefaultTimeout(5*time.Second)),
	)
	if err != nil {
		log.Error("shipping client", "err", err)
		os.Exit(1)
	}
	defer conn.Close()
	ship := shippingv1.NewShippingServiceClient(conn)
	for {
		resp, err := ship.ListCarriers(ctx, &shippingv1.ListCarriersRequest{Country: *country}) // OK
		if err != nil {
			log.Warn("carrier sync failed", "err", err)
		} else if err := storeCarriers(ctx, database.SQL, *country, resp.GetCarriers()); err != nil {
			log.Warn("carrier sync store failed", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(*syncEvery):
		}
	}
}

func storeCarriers(ctx context.Context, db *sql.DB, country string, carriers []*shippingv1.Carrier) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, c := range carriers {
		if _, err := tx.ExecContext(ctx,
			`UPDATE carriers SET name = $3, active = $4 WHERE code = $1 AND country = $2`,
			c.GetCode(), country, c.GetName(), c.GetActive()); err != nil {
			return err
		}
	}
	return tx.Commit()
}
