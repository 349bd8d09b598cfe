// Command stock-reconcile runs after each warehouse count: it uploads the
// counted quantities, corrects the SKUs whose count differs from the books,
// spot-checks a sample of the others against the legacy warehouse system,
// and releases reservations that outlived their order.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/signal"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/wrapperspb"

	inventoryv1 "example.test/clients/gen/inventory/v1"
	"example.test/clients/internal/ops"
	"example.test/clients/pkg/sdk"
)

type config struct {
	inventoryAddr, billingAddr, jobsAddr, legacyAddr string
	countsFile, fixFile, staleFile                   string
	sample                                           int
	highValue                                        stringList
	maxAttempts                                      int
}

type stringList []string

func (l *stringList) String() string     { return fmt.Sprint(*l) }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

func main() {
	var cfg config
	flag.StringVar(&cfg.inventoryAddr, "inventory", "dns:///inventory.internal:8443", "inventory service address")
	flag.StringVar(&cfg.billingAddr, "billing", "dns:///billing.internal:8443", "billing service address")
	flag.StringVar(&cfg.jobsAddr, "jobs", "dns:///jobs.internal:8443", "job queue address")
	flag.StringVar(&cfg.legacyAddr, "legacy", "dns:///wms-legacy.internal:9000", "legacy warehouse system")
	flag.StringVar(&cfg.countsFile, "counts", "", "count export (JSON lines)")
	flag.StringVar(&cfg.fixFile, "fix", "", "optional sku,delta,reason corrections to apply afterwards")
	flag.StringVar(&cfg.staleFile, "stale", "", "optional list of stale reservation IDs")
	flag.IntVar(&cfg.sample, "sample", 50, "number of matching SKUs to spot-check")
	flag.Var(&cfg.highValue, "high-value", "SKU that is always spot-checked (repeatable)")
	flag.IntVar(&cfg.maxAttempts, "max-attempts", 4, "attempts per correction")
	flag.Parse()

	if err := run(cfg); err != nil {
		slog.Error("stock-reconcile failed", "err", err)
		os.Exit(1)
	}
}

type report struct {
	Uploaded   int      `json:"uploaded"`
	Mismatched []string `json:"mismatched"`
	Corrected  int      `json:"corrected"`
	Drift      []string `json:"drift"`
	Released   int      `json:"released"`
	Fixes      int      `json:"fixes"`
}

func run(cfg config) error {
	ctx, cancel := context.WithCancel(context.Background()) // OK
	defer cancel()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, os.Interrupt)
	go func() {
		select {
		case s := <-sigs:
			slog.Warn("interrupted", "signal", s)
			cancel()
		case <-ctx.Done():
		}
	}()

	counts, err := readCounts(cfg.countsFile)
	if err != nil {
		return err
	}

	conn, err := grpc.NewClient(cfg.inventoryAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer conn.Close()
	inv := inventoryv1.NewInventoryServiceClient(conn)

	legacy, err := grpc.NewClient(cfg.legacyAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer legacy.Close()

	client, err := sdk.New(sdk.Config{
		BillingAddr:   cfg.billingAddr,
		InventoryAddr: cfg.inventoryAddr,
		JobsAddr:      cfg.jobsAddr,
		UserAgent:     "stock-reconcile",
	})
	if err != nil {
		return err
	}
	defer client.Close()

	lock, err := client.LeaseJobs(ctx, "reconcile-lock", 1, 30*time.Second) // OK
	if err != nil {
		return err
	}
	if len(lock) == 0 {
		return errors.New("another reconcile run holds the lock")
	}
	defer func() {
		// The lock must be given back even when the run was interrupted, or the
		// next run waits an hour for the lease to expire.
		lctx, lcancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second) // OK
		defer lcancel()
		if err := client.Release(lctx, lock[0].GetLeaseId()); err != nil { // OK
			slog.Warn("lock not released", "err", err)
		}
	}()

	var rep report

	// Upload the count.
	up, err := inv.UploadCounts(ctx) // OK
	if err != nil {
		return err
	}
	bySKU := make(map[string]int64, len(counts))
	for _, c := range counts {
		bySKU[c.GetSku()] = c.GetCounted()
		if err := up.Send(c); err != nil {
			return fmt.Errorf("upload counts: %w", err)
		}
	}
	res, err := up.CloseAndRecv()
	if err != nil {
		return fmt.Errorf("upload counts: %w", err)
	}
	rep.Uploaded = int(res.GetAccepted())
	rep.Mismatched = res.GetMismatchedSkus()

	// Follow concurrent movements of the mismatched SKUs while we correct them.
	if len(rep.Mismatched) > 0 {
		watch, err := inv.WatchStock(ctx, &inventoryv1.WatchStockRequest{Skus: rep.Mismatched}) // OK
		if err != nil {
			return err
		}
		go func() {
			for {
				ev, err := watch.Recv()
				if err != nil {
					return
				}
				slog.Info("stock moved during reconcile", "sku", ev.GetSku(), "on_hand", ev.GetOnHand())
			}
		}()
	}

	// Correct the mismatches.
	lookup := inv.GetItem
	for _, sku := range rep.Mismatched {
		item, err := lookup(ctx, &inventoryv1.GetItemRequest{Sku: sku}) // BUG: missingdeadline
		if err != nil {
			slog.Warn("lookup failed", "sku", sku, "err", err)
			continue
		}
		delta := bySKU[sku] - item.GetOnHand()
		if delta == 0 {
			continue
		}
		if _, err := adjustWithRetry(ctx, inv, sku, delta, cfg.maxAttempts); err != nil { // OK
			slog.Warn("correction failed", "sku", sku, "delta", delta, "err", err)
			continue
		}
		rep.Corrected++
	}

	// Spot-check: the high-value SKUs under a deadline each, plus a sample.
	for _, sku := range cfg.highValue {
		cctx, ccancel := context.WithTimeout(ctx, 5*time.Second)
		drift, err := checkItem(cctx, inv, sku, bySKU[sku]) // OK
		ccancel()
		if err != nil || drift != 0 {
			rep.Drift = append(rep.Drift, sku)
		}
	}
	for _, sku := range sampleSKUs(bySKU, cfg.sample) {
		drift, err := checkItem(ctx, inv, sku, bySKU[sku]) // BUG: missingdeadline
		if err != nil || drift != 0 {
			rep.Drift = append(rep.Drift, sku)
		}
	}
	if err := compareLegacy(ctx, legacy, rep.Drift, bySKU); err != nil { // BUG: missingdeadline
		slog.Warn("legacy comparison incomplete", "err", err)
	}
	if _, err := client.BatchGetItems(ctx, rep.Drift); err != nil { // OK
		slog.Warn("drift refresh failed", "err", err)
	}

	// Release stale reservations.
	if cfg.staleFile != "" {
		ids, err := readLines(cfg.staleFile)
		if err != nil {
			return err
		}
		release := client.ReleaseStock
		for _, rid := range ids {
			if _, err := release(ctx, rid); err != nil { // OK: the same ctx, on the same path, as the finding at main.go:204, which lists this call (one finding per ctx, precision issue)
				if err := releaseOrphan(inv, rid, cfg.maxAttempts); err != nil { // OK
					slog.Warn("release failed", "reservation", rid, "err", err)
					continue
				}
			}
			rep.Released++
		}
	}

	if cfg.fixFile != "" {
		f, err := os.Open(cfg.fixFile)
		if err != nil {
			return err
		}
		n, err := ops.RestockFromCSV(ctx, client, f) // OK: the same ctx, on the same path, as the finding at main.go:204, which lists this call (one finding per ctx, precision issue)
		f.Close()
		rep.Fixes = n
		if err != nil {
			slog.Warn("fix file partially applied", "err", err)
		}
	}

	return sendReport(ctx, client, rep)
}

// compareLegacy checks the drifting SKUs against the old warehouse system,
// which has no published protos: its two read methods are called by name.
func compareLegacy(ctx context.Context, legacy *grpc.ClientConn, skus []string, counted map[string]int64) error {
	var errs []error
	for _, sku := range skus {
		var onHand wrapperspb.Int64Value
		if err := legacy.Invoke(ctx, "/wms.legacy.v1.Counts/GetCount", wrapperspb.String(sku), &onHand); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", sku, err))
			continue
		}
		rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		reserved, err := sdk.Invoke[wrapperspb.Int64Value](rctx, legacy, "/wms.legacy.v1.Counts/GetReserved", wrapperspb.String(sku)) // OK
		cancel()
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", sku, err))
			continue
		}
		if onHand.GetValue()+reserved.GetValue() != counted[sku] {
			slog.Info("legacy disagrees", "sku", sku, "legacy_on_hand", onHand.GetValue(), "legacy_reserved", reserved.GetValue(), "counted", counted[sku])
		}
	}
	return errors.Join(errs...)
}

func sendReport(ctx context.Context, client *sdk.Client, rep report) error {
	payload, err := json.Marshal(rep)
	if err != nil {
		return err
	}
	rctx, rcancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	// ^BUG: detach
	defer rcancel()
	if _, err := client.EnqueueJob(rctx, "reconcile-report", payload); err != nil { // OK
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

func sampleSKUs(bySKU map[string]int64, n int) []string {
	all := make([]string, 0, len(bySKU))
	for sku := range bySKU {
		all = append(all, sku)
	}
	rand.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	if len(all) > n {
		all = all[:n]
	}
	return all
}

func readCounts(path string) ([]*inventoryv1.CountRecord, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	var out []*inventoryv1.CountRecord
	for {
		var row struct {
			SKU       string `json:"sku"`
			Warehouse string `json:"warehouse"`
			Counted   int64  `json:"counted"`
		}
		if err := dec.Decode(&row); errors.Is(err, io.EOF) {
			return out, nil
		} else if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, &inventoryv1.CountRecord{Sku: row.SKU, Warehouse: row.Warehouse, Counted: row.Counted})
	}
}
