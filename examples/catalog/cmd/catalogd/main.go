// Command catalogd serves the catalog over gRPC.
//
//	catalogd -db-driver pgx -db postgres://… -pricing http://pricing:8080
//
// The binary must import the database/sql driver it is given.
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"google.golang.org/grpc"

	"github.com/deadlinelint/deadlinelint/examples/catalog/catalogv1"
	"github.com/deadlinelint/deadlinelint/examples/catalog/internal/audit"
	"github.com/deadlinelint/deadlinelint/examples/catalog/internal/pricing"
	"github.com/deadlinelint/deadlinelint/examples/catalog/internal/store"
	"github.com/deadlinelint/deadlinelint/examples/catalog/server"
)

// config is the command line.
type config struct {
	addr       string
	dbDriver   string
	dsn        string
	pricingURL string
	fxURL      string
	refresh    time.Duration
}

func main() {
	var cfg config
	flag.StringVar(&cfg.addr, "addr", "127.0.0.1:7070", "listen on this `address`")
	flag.StringVar(&cfg.dbDriver, "db-driver", "pgx", "database/sql driver `name`")
	flag.StringVar(&cfg.dsn, "db", "", "database `DSN`")
	flag.StringVar(&cfg.pricingURL, "pricing", "http://127.0.0.1:8080", "pricing service `URL`")
	flag.StringVar(&cfg.fxURL, "fx", "http://127.0.0.1:8081/v1/rate", "exchange-rate endpoint `URL`")
	flag.DurationVar(&cfg.refresh, "refresh", time.Minute, "re-quote all prices this often")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, cfg); err != nil {
		log.Printf("catalogd: %v", err)
		stop()
		os.Exit(1)
	}
}

// run serves until ctx ends, then stops gracefully.
func run(ctx context.Context, cfg config) error {
	db, err := sql.Open(cfg.dbDriver, cfg.dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	repo, err := store.Open(db)
	if err != nil {
		return err
	}

	prices := pricing.NewClient(cfg.pricingURL, &http.Client{Timeout: 5 * time.Second}, 2*time.Second)
	if _, err := prices.Lookup("health-check"); err != nil {
		log.Printf("catalogd: pricing service not reachable yet: %v", err)
	}

	srv := server.New(server.Config{
		Repo:   repo,
		Search: db,
		Prices: prices,
		Audit:  audit.NewWriter(db),
		FXURL:  cfg.fxURL,
	})
	defer func() {
		if err := srv.Close(); err != nil {
			log.Printf("catalogd: close: %v", err)
		}
	}()
	go srv.RefreshPrices(cfg.refresh)

	lis, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return err
	}
	gs := grpc.NewServer(grpc.UnaryInterceptor(server.DefaultDeadline(10 * time.Second)))
	catalogv1.RegisterCatalogServiceServer(gs, srv)
	go func() {
		<-ctx.Done()
		gs.GracefulStop()
	}()
	log.Printf("catalogd: serving on %s", lis.Addr())
	if err := gs.Serve(lis); err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}
