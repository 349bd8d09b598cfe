// Command migrate applies the schema migrations and the one-off data fixes.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"time"

	catalogv1 "example.test/monolith/gen/catalog/v1"
	"example.test/monolith/internal/migrations"
	"example.test/monolith/internal/platform/db"
	"example.test/monolith/internal/platform/grpcx"
)

func main() {
	var (
		dsn           = flag.String("dsn", os.Getenv("DATABASE_URL"), "Postgres DSN")
		dryRun        = flag.Bool("dry-run", false, "list pending migrations and exit")
		backfill      = flag.Bool("backfill-prices", false, "fill zero base prices from the pricing engine")
		catalogTarget = flag.String("catalog", "dns:///monolith.internal:9090", "catalog service target")
	)
	flag.Parse()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	ctx := context.Background() // OK

	database, err := db.Open(ctx, *dsn, log)
	if err != nil {
		log.Error("database", "err", err)
		os.Exit(1)
	}
	defer database.Close()

	if *dryRun {
		pending, err := migrations.Pending(ctx, database.SQL) // OK
		if err != nil {
			log.Error("pending", "err", err)
			os.Exit(1)
		}
		for _, n := range pending {
			fmt.Println(n)
		}
		return
	}
	if err := migrations.Apply(ctx, database.SQL, log); err != nil { // OK
		log.Error("migrate", "err", err)
		os.Exit(1)
	}

	// Pre-2019 schema leftovers that were never captured in a migration file.
	if ok, err := database.Exists(`SELECT 1 FROM information_schema.columns WHERE table_name = 'orders' AND column_name = 'legacy_ref'`); err == nil && ok { // OK
		if _, err := database.SQL.Exec(`ALTER TABLE orders DROP COLUMN legacy_ref`); err != nil { // OK
			log.Error("drop legacy_ref", "err", err)
			os.Exit(1)
		}
	}

	if *backfill {
		bctx, cancel := context.WithCancel(ctx)
		defer cancel()
		cc, err := grpcx.Dial(*catalogTarget, "monolith-migrate")
		if err != nil {
			log.Error("catalog client", "err", err)
			os.Exit(1)
		}
		defer cc.Close()
		if err := backfillPrices(bctx, catalogv1.NewCatalogServiceClient(cc), database, log); err != nil { // BUG: missingdeadline
			log.Error("backfill", "err", err)
			os.Exit(1)
		}
	}
}

func backfillPrices(ctx context.Context, client catalogv1.CatalogServiceClient, d *db.DB, log *slog.Logger) error {
	rows, err := d.SQL.QueryContext(ctx, `SELECT sku FROM products WHERE base_price_minor = 0`)
	if err != nil {
		return err
	}
	var skus []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			rows.Close()
			return err
		}
		skus = append(skus, s)
	}
	rows.Close()
	for _, sku := range skus {
		p, err := client.GetPrice(ctx, &catalogv1.GetPriceRequest{Sku: sku})
		if err != nil {
			log.Warn("no price", "sku", sku, "err", err)
			continue
		}
		if _, err := d.SQL.ExecContext(ctx, `UPDATE products SET base_price_minor = $2 WHERE sku = $1`, sku, p.GetAmountMinor()); err != nil {
			return err
		}
		time.Sleep(20 * time.Millisecond) // OK
	}
	log.Info("backfill done", "count", len(skus))
	return nil
}
