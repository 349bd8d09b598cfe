// Command fulfillment-worker runs fulfillment, refund and notification jobs
// from the job queue.
package main

import (
	"context"
	"flag"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"example.test/clients/internal/worker"
	"example.test/clients/pkg/sdk"
)

func main() {
	billingAddr := flag.String("billing", "dns:///billing.internal:8443", "billing service address")
	inventoryAddr := flag.String("inventory", "dns:///inventory.internal:8443", "inventory service address")
	jobsAddr := flag.String("jobs", "dns:///jobs.internal:8443", "job queue address")
	queue := flag.String("queue", "fulfillment", "queue to consume")
	concurrency := flag.Int("concurrency", 8, "jobs run at once")
	metricsAddr := flag.String("metrics", ":9102", "health endpoint address")
	flag.Parse()

	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM) // OK
	defer stop()

	client, err := sdk.New(sdk.Config{
		BillingAddr:    *billingAddr,
		InventoryAddr:  *inventoryAddr,
		JobsAddr:       *jobsAddr,
		UserAgent:      "fulfillment-worker",
		DefaultTimeout: 15 * time.Second,
	})
	if err != nil {
		log.Error("sdk", "err", err)
		os.Exit(1)
	}
	defer client.Close()

	go func() {
		mux := http.NewServeMux()
		mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
		srv := &http.Server{Addr: *metricsAddr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
		if err := srv.ListenAndServe(); err != nil {
			log.Warn("health endpoint stopped", "err", err)
		}
	}()

	w := worker.New(client, worker.Options{Queue: *queue, Concurrency: *concurrency}, log)
	log.Info("worker started", "queue", *queue, "concurrency", *concurrency)
	if err := w.Run(ctx); err != nil { // BUG: missingdeadline
		log.Error("worker stopped", "err", err)
	}
	w.Drain()
	log.Info("worker stopped")
}
