package main

// Family 8 — missingdeadline through dynamic shapes: a deadline-less ctx
// (context.Background() in a cron task) reaching a unary generated-client call through a
// callback, a method value, a method expression, a returned closure, a generic helper, a map
// of funcs, a phi, an interface, a struct field, an iterator, and ClientConnInterface.Invoke.
// Every task makes its own root. The look-alikes are the same shapes with a deadline.

import (
	"context"
	"fmt"
	"iter"
	"os"
	"os/signal"
	"sort"
	"time"

	"google.golang.org/grpc"

	invpb "example.test/dynamic/gen/inventory/v1"
	"example.test/dynamic/internal/batch"
	"example.test/dynamic/internal/retry"
)

const (
	runBudget  = 10 * time.Minute
	callBudget = 5 * time.Second
)

func (j *nightly) refreshOne(ctx context.Context, sku string) error {
	_, err := j.inv.GetItem(ctx, &invpb.GetItemRequest{Sku: sku}) // OK: reported where the ctx is supplied
	return err
}

// refreshAll re-reads every SKU so that inventory's caches are warm for the morning shift.
func (j *nightly) refreshAll() error {
	ctx := context.Background()
	return batch.Each(ctx, j.skus, j.refreshOne) // BUG: missingdeadline
}

// refreshBounded is refreshAll under one deadline for the whole run.
func (j *nightly) refreshBounded() error {
	ctx, cancel := context.WithTimeout(context.Background(), runBudget)
	defer cancel()
	return batch.Each(ctx, j.skus, j.refreshOne) // OK: the callback gets a ctx with a deadline
}

// probeAll checks every SKU through the conn whose interceptor sets a default deadline.
func (j *nightly) probeAll() error {
	ctx := context.Background()
	return batch.Each(ctx, j.skus, func(ctx context.Context, sku string) error { // OK: bconn's interceptor adds a deadline
		_, err := j.bounded.GetItem(ctx, &invpb.GetItemRequest{Sku: sku})
		return err
	})
}

// adjustShrinkage books the shrinkage found by the store audits.
func (j *nightly) adjustShrinkage() error {
	ctx := context.Background()
	adjust := j.inv.Adjust
	for _, sku := range sortedKeys(j.shrinkage) {
		req := &invpb.AdjustRequest{Sku: sku, Delta: -j.shrinkage[sku], Reason: "shrinkage"}
		if _, err := adjust(ctx, req); err != nil { // BUG: missingdeadline
			return err
		}
	}
	return nil
}

// adjustReturns books the day's customer returns, one deadline per call.
func (j *nightly) adjustReturns() error {
	adjust := j.inv.Adjust
	for _, sku := range sortedKeys(j.returns) {
		ctx, cancel := context.WithTimeout(context.Background(), callBudget)
		_, err := adjust(ctx, &invpb.AdjustRequest{Sku: sku, Delta: j.returns[sku], Reason: "returns"}) // OK: method value with a deadline
		cancel()
		if err != nil {
			return err
		}
	}
	return nil
}

// auditPrices prints the current price of every SKU.
func (j *nightly) auditPrices() error {
	ctx := context.Background()
	get := invpb.InventoryServiceClient.GetItem
	for _, sku := range j.skus {
		it, err := get(j.inv, ctx, &invpb.GetItemRequest{Sku: sku}) // BUG: missingdeadline
		if err != nil {
			return err
		}
		fmt.Fprintf(j.out, "price %s %d\n", sku, it.GetPriceCents())
	}
	return nil
}

// auditCounts prints what inventory has on hand, under one deadline.
func (j *nightly) auditCounts() error {
	ctx, cancel := context.WithTimeout(context.Background(), runBudget)
	defer cancel()
	get := invpb.InventoryServiceClient.GetItem
	for _, sku := range j.skus {
		it, err := get(j.inv, ctx, &invpb.GetItemRequest{Sku: sku}) // OK: method expression with a deadline
		if err != nil {
			return err
		}
		fmt.Fprintf(j.out, "on-hand %s %d\n", sku, it.GetOnHand())
	}
	return nil
}

func (j *nightly) reserveCall(sku string, qty int64) func(context.Context) error {
	return func(ctx context.Context) error {
		_, err := j.inv.Reserve(ctx, &invpb.ReserveRequest{Sku: sku, Quantity: qty, JobId: "nightly-qa"})
		return err
	}
}

func (j *nightly) releaseCall(id string) func(context.Context) error {
	return func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(ctx, callBudget)
		defer cancel()
		_, err := j.inv.Release(ctx, &invpb.ReleaseRequest{ReservationId: id})
		return err
	}
}

// reserveSamples holds one unit of every sampled SKU for quality control.
func (j *nightly) reserveSamples() error {
	ctx := context.Background()
	for _, sku := range j.samples {
		call := j.reserveCall(sku, 1)
		if err := call(ctx); err != nil { // BUG: missingdeadline
			return err
		}
	}
	return nil
}

// releaseSamples gives yesterday's samples back.
func (j *nightly) releaseSamples() error {
	ctx := context.Background()
	for _, sku := range j.samples {
		call := j.releaseCall("nightly-qa:" + sku)
		if err := call(ctx); err != nil { // OK: the returned closure sets its own deadline
			return err
		}
	}
	return nil
}

// reconcile re-reads every SKU with retries.
func (j *nightly) reconcile() error {
	ctx := context.Background()
	for _, sku := range j.skus {
		it, err := retry.Do(ctx, 3, func(ctx context.Context) (*invpb.Item, error) { // BUG: missingdeadline
			return j.inv.GetItem(ctx, &invpb.GetItemRequest{Sku: sku})
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(j.out, "reconciled %s %d\n", sku, it.GetOnHand())
	}
	return nil
}

// reconcileBounded is reconcile with a deadline on every attempt, then on the whole retry.
func (j *nightly) reconcileBounded() error {
	ctx := context.Background()
	for _, sku := range j.skus {
		get := func(ctx context.Context) (*invpb.Item, error) {
			return j.inv.GetItem(ctx, &invpb.GetItemRequest{Sku: sku})
		}
		if _, err := retry.DoTimeout(ctx, 3, callBudget, get); err != nil { // OK: per-attempt deadline
			return err
		}
		if _, err := retry.Detached(3, callBudget, get); err != nil { // OK: budget of its own
			return err
		}
	}
	return nil
}

func (j *nightly) syncStock(ctx context.Context) error {
	_, err := j.inv.ListItems(ctx, &invpb.ListItemsRequest{PageSize: 1000})
	return err
}

func (j *nightly) syncPrices(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, callBudget)
	defer cancel()
	_, err := j.inv.ListItems(ctx, &invpb.ListItemsRequest{PageSize: 1000})
	return err
}

func (j *nightly) checkReserved(ctx context.Context) error {
	for _, sku := range j.skus {
		cctx, cancel := context.WithTimeout(ctx, callBudget)
		it, err := j.inv.GetItem(cctx, &invpb.GetItemRequest{Sku: sku})
		cancel()
		if err != nil {
			return err
		}
		if it.GetReserved() > it.GetOnHand() {
			fmt.Fprintf(j.out, "over-reserved %s\n", sku)
		}
	}
	return nil
}

// syncAll runs every sync step.
func (j *nightly) syncAll() error {
	ctx := context.Background()
	steps := map[string]func(context.Context) error{
		"stock":  j.syncStock,
		"prices": j.syncPrices,
	}
	for _, name := range []string{"stock", "prices"} {
		if err := steps[name](ctx); err != nil { // BUG: missingdeadline
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}

// checkAll runs every consistency check; each sets its own deadline.
func (j *nightly) checkAll() error {
	ctx := context.Background()
	checks := map[string]func(context.Context) error{
		"prices":   j.syncPrices,
		"reserved": j.checkReserved,
	}
	for name, check := range checks {
		if err := check(ctx); err != nil { // OK: every function in the table adds a deadline
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}

func (j *nightly) printAdjust(_ context.Context, req *invpb.AdjustRequest, _ ...grpc.CallOption) (*invpb.Item, error) {
	fmt.Fprintf(j.out, "would adjust %s by %d (%s)\n", req.GetSku(), req.GetDelta(), req.GetReason())
	return &invpb.Item{Sku: req.GetSku()}, nil
}

// correctCounts books the differences found by the stock count, or prints them with -dry-run.
func (j *nightly) correctCounts() error {
	ctx := context.Background()
	send := j.inv.Adjust
	if j.dryRun {
		send = j.printAdjust
	}
	for _, sku := range sortedKeys(j.counted) {
		if _, err := send(ctx, &invpb.AdjustRequest{Sku: sku, Delta: j.counted[sku], Reason: "count"}); err != nil { // BUG: missingdeadline
			return err
		}
	}
	return nil
}

// releaseStale releases the reservations older than a day through the raw method.
func (j *nightly) releaseStale() error {
	ctx := context.Background()
	for _, id := range j.stale {
		out := new(invpb.ReleaseResponse)
		if err := j.cc.Invoke(ctx, invpb.InventoryService_Release_FullMethodName, &invpb.ReleaseRequest{ReservationId: id}, out); err != nil { // BUG: missingdeadline
			return err
		}
	}
	return nil
}

// releaseStaleBounded is releaseStale with a deadline on every call.
func (j *nightly) releaseStaleBounded() error {
	for _, id := range j.stale {
		ctx, cancel := context.WithTimeout(context.Background(), callBudget)
		err := j.cc.Invoke(ctx, invpb.InventoryService_Release_FullMethodName, &invpb.ReleaseRequest{ReservationId: id}, new(invpb.ReleaseResponse)) // OK: deadline
		cancel()
		if err != nil {
			return err
		}
	}
	return nil
}

// itemSource reads items: from inventory, or from the local snapshot when offline.
type itemSource interface {
	Item(ctx context.Context, sku string) (*invpb.Item, error)
}

type rpcItems struct{ c invpb.InventoryServiceClient }

func (r rpcItems) Item(ctx context.Context, sku string) (*invpb.Item, error) {
	return r.c.GetItem(ctx, &invpb.GetItemRequest{Sku: sku})
}

type snapshotItems struct{ items map[string]*invpb.Item }

func (m snapshotItems) Item(_ context.Context, sku string) (*invpb.Item, error) {
	if it, ok := m.items[sku]; ok {
		return it, nil
	}
	return &invpb.Item{Sku: sku}, nil
}

// snapshot prints every item.
func (j *nightly) snapshot() error {
	var src itemSource = rpcItems{c: j.inv}
	if j.offline {
		src = snapshotItems{}
	}
	ctx := context.Background()
	for _, sku := range j.skus {
		it, err := src.Item(ctx, sku) // BUG: missingdeadline
		if err != nil {
			return err
		}
		fmt.Fprintf(j.out, "item %s %q %d\n", sku, it.GetName(), it.GetOnHand())
	}
	return nil
}

// priceSource prices items: from inventory, or from inventory under a budget of its own.
type priceSource interface {
	PriceOf(ctx context.Context, sku string) (int64, error)
}

type rpcPrices struct{ c invpb.InventoryServiceClient }

func (r rpcPrices) PriceOf(ctx context.Context, sku string) (int64, error) {
	it, err := r.c.GetItem(ctx, &invpb.GetItemRequest{Sku: sku})
	return it.GetPriceCents(), err
}

type boundedPrices struct{ c invpb.InventoryServiceClient }

func (r boundedPrices) PriceOf(ctx context.Context, sku string) (int64, error) {
	ctx, cancel := context.WithTimeout(ctx, callBudget)
	defer cancel()
	it, err := r.c.GetItem(ctx, &invpb.GetItemRequest{Sku: sku})
	return it.GetPriceCents(), err
}

// quote prints the price of every SKU.
func (j *nightly) quote() error {
	var src priceSource = boundedPrices{c: j.inv}
	if j.dryRun {
		src = rpcPrices{c: j.bounded}
	}
	ctx := context.Background()
	for _, sku := range j.skus {
		p, err := src.PriceOf(ctx, sku) // OK: one implementation in sight adds a deadline of its own
		if err != nil {
			return err
		}
		fmt.Fprintf(j.out, "quote %s %d\n", sku, p)
	}
	return nil
}

// verify checks that every SKU still exists, through the fetch field.
func (j *nightly) verify() error {
	ctx := context.Background()
	for _, sku := range j.skus {
		if _, err := j.fetch(ctx, &invpb.GetItemRequest{Sku: sku}); err != nil { // BUG: missingdeadline
			return fmt.Errorf("%s: %w", sku, err)
		}
	}
	return nil
}

func (j *nightly) pages(ctx context.Context) iter.Seq2[*invpb.Item, error] {
	return func(yield func(*invpb.Item, error) bool) {
		token := ""
		for {
			resp, err := j.inv.ListItems(ctx, &invpb.ListItemsRequest{PageToken: token, PageSize: 500})
			if err != nil {
				yield(nil, err)
				return
			}
			for _, it := range resp.GetItems() {
				if !yield(it, nil) {
					return
				}
			}
			if token = resp.GetNextPageToken(); token == "" {
				return
			}
		}
	}
}

// exportAll writes every item as CSV.
func (j *nightly) exportAll() error {
	ctx := context.Background()
	for it, err := range j.pages(ctx) { // BUG: missingdeadline
		if err != nil {
			return err
		}
		fmt.Fprintf(j.out, "%s,%d,%d\n", it.GetSku(), it.GetOnHand(), it.GetPriceCents())
	}
	return nil
}

// exportBounded is exportAll under one deadline.
func (j *nightly) exportBounded() error {
	ctx, cancel := context.WithTimeout(context.Background(), runBudget)
	defer cancel()
	for it, err := range j.pages(ctx) { // OK: the iterator's RPCs get a ctx with a deadline
		if err != nil {
			return err
		}
		fmt.Fprintf(j.out, "%s,%d\n", it.GetSku(), it.GetOnHand())
	}
	return nil
}

// watchLowStock reports SKUs that run low until interrupted.
func (j *nightly) watchLowStock() error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	watch := j.inv.WatchStock
	stream, err := watch(ctx, &invpb.WatchStockRequest{Skus: j.skus}) // OK: a stream, not a unary call
	if err != nil {
		return err
	}
	for {
		ev, err := stream.Recv()
		if err != nil {
			return nil
		}
		if ev.GetOnHand() < 5 {
			fmt.Fprintf(j.out, "low %s %d\n", ev.GetSku(), ev.GetOnHand())
		}
	}
}

func sortedKeys(m map[string]int64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
