package inventory

import (
	"context"
	"errors"
	"io"
	"strconv"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	inventoryv1 "example.test/mature/gen/inventory/v1"
	"example.test/mature/internal/audit"
)

// watch is the state of one WatchStock stream.
type watch struct {
	ctx  context.Context
	skus []string
	last map[string]int64
}

// send forwards a quantity unless the client already has it.
func (w *watch) send(stream grpc.ServerStreamingServer[inventoryv1.StockEvent], sku string, qty int64) error {
	if prev, ok := w.last[sku]; ok && prev == qty {
		return nil
	}
	if err := w.ctx.Err(); err != nil { // OK
		return status.FromContextError(err).Err()
	}
	w.last[sku] = qty
	return stream.Send(&inventoryv1.StockEvent{Sku: sku, Quantity: qty})
}

// WatchStock streams the quantity of the requested SKUs whenever it changes.
func (s *Server) WatchStock(req *inventoryv1.WatchStockRequest, stream grpc.ServerStreamingServer[inventoryv1.StockEvent]) error {
	ctx := stream.Context()
	if n := len(req.GetSkus()); n == 0 || n > maxBatch {
		return status.Errorf(codes.InvalidArgument, "between 1 and %d skus are required", maxBatch)
	}
	w := &watch{ctx: ctx, skus: req.GetSkus(), last: make(map[string]int64)}
	snapshot, err := s.store.Quantities(w.ctx, w.skus) // OK
	if err != nil {
		return storeError(ctx, err)
	}
	for sku, n := range snapshot {
		if err := w.send(stream, sku, n); err != nil {
			return err
		}
	}

	updates, unsubscribe := s.events.Subscribe(w.skus)
	defer unsubscribe()

	// The supplier catalog import writes quantities without publishing events;
	// poll so that watchers see those changes too.
	polled := make(chan map[string]int64, 1)
	go func() {
		defer close(polled)
		for ctx.Err() == nil {
			time.Sleep(s.cfg.PollInterval) // OK: time.Sleep: the poll loop checks ctx.Err() at every turn (ctxless reports a sleep only in a loop that can turn without checking a ctx; precision issue)
			q, err := s.store.Quantities(ctx, w.skus)
			if err != nil {
				continue
			}
			select {
			case polled <- q:
			case <-ctx.Done():
				return
			}
		}
	}()

	for {
		select {
		case <-ctx.Done():
			return status.FromContextError(ctx.Err()).Err()
		case <-s.lifetime.Done(): // OK
			return status.Error(codes.Unavailable, "server is shutting down")
		case ev := <-updates:
			if err := w.send(stream, ev.SKU, ev.Quantity); err != nil {
				return err
			}
		case q, ok := <-polled:
			if !ok {
				return status.FromContextError(ctx.Err()).Err()
			}
			for sku, n := range q {
				if err := w.send(stream, sku, n); err != nil {
					return err
				}
			}
		}
	}
}

// ImportItems upserts a stream of items and refreshes the search index of
// every warehouse it touched.
func (s *Server) ImportItems(stream grpc.ClientStreamingServer[inventoryv1.Item, inventoryv1.ImportItemsResponse]) error {
	ctx := stream.Context()
	batch := "import-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	ictx := metadata.AppendToOutgoingContext(ctx, "x-import-batch", batch) // OK

	var imported int32
	warehouses := map[string]bool{}
	for {
		it, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if it.GetSku() == "" || it.GetWarehouse() == "" {
			return status.Errorf(codes.InvalidArgument, "item %d: sku and warehouse are required", imported)
		}
		if err := s.store.UpsertItem(ctx, fromProto(it)); err != nil { // OK
			return storeError(ctx, err)
		}
		if err := s.search.Index(ictx, it.GetSku(), it.GetName(), it.GetWarehouse()); err != nil { // OK
			s.log.WarnContext(ctx, "index on import failed", "sku", it.GetSku(), "err", err)
		}
		warehouses[it.GetWarehouse()] = true
		imported++
	}

	s.audit.RecordDetached(ctx, audit.Entry{Action: "import", Resource: batch, Detail: map[string]string{"items": strconv.Itoa(int(imported))}}) // OK
	for wh := range warehouses {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.cfg.ReindexBudget)
		// ^BUG: detach
		go func() {
			defer cancel()
			if _, err := s.search.Reindex(rctx, wh, 500); err != nil {
				s.log.WarnContext(rctx, "post-import reindex failed", "warehouse", wh, "err", err)
			}
		}()
	}
	return stream.SendAndClose(&inventoryv1.ImportItemsResponse{Imported: imported})
}
