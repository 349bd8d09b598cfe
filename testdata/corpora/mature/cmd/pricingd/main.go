// Command pricingd serves pricing.v1.PricingService over Connect, gRPC and
// gRPC-Web.
package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"example.test/mature/gen/pricing/v1/pricingv1connect"
	"example.test/mature/internal/pricing"
)

func main() {
	addr := flag.String("addr", ":7003", "listen address")
	dsn := flag.String("dsn", os.Getenv("PRICING_DSN"), "Postgres DSN")
	flag.Parse()
	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM) // OK
	defer stop()

	db, err := sql.Open("pgx", *dsn)
	if err != nil {
		log.Error("open database", "err", err)
		os.Exit(1)
	}
	defer db.Close()

	rates := pricing.NewRateCache(db, 10*time.Minute, log)
	go rates.Run(ctx) // OK
	feed := pricing.NewFeed(db, log)
	go feed.Run(ctx, 2*time.Second) // OK

	mux := http.NewServeMux()
	mux.Handle(pricingv1connect.NewPricingServiceHandler(pricing.NewService(db, rates, pricing.NewQuoteLog(db), feed, log)))
	hs := &http.Server{Addr: *addr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	hs.Protocols = new(http.Protocols)
	hs.Protocols.SetHTTP1(true)
	hs.Protocols.SetUnencryptedHTTP2(true)

	errc := make(chan error, 1)
	go func() { errc <- hs.ListenAndServe() }()
	select {
	case <-ctx.Done():
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			log.Error("serve", "err", err)
			os.Exit(1)
		}
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // OK
	defer cancel()
	if err := hs.Shutdown(shutdownCtx); err != nil {
		log.Error("shutdown", "err", err)
	}
}
