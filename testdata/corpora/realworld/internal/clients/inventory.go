package clients

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"
	"google.golang.org/grpc"

	inventoryv1 "example.test/realworld/gen/inventory/v1"
)

// AvailabilityTimeout bounds a stock check: a slow warehouse must not hold up
// a checkout page.
const AvailabilityTimeout = 800 * time.Millisecond

// Inventory is the orders-side view of the inventory service.
type Inventory struct {
	c   inventoryv1.InventoryServiceClient
	log *zap.Logger
}

// NewInventory returns an inventory client on conn.
func NewInventory(conn grpc.ClientConnInterface, log *zap.Logger) *Inventory {
	return &Inventory{c: inventoryv1.NewInventoryServiceClient(conn), log: log.Named("inventory")}
}

// Line is a quantity of one SKU.
type Line struct {
	SKU      string
	Quantity int32
}

// Reserve holds stock for an order. Short lines come back in the map.
func (i *Inventory) Reserve(ctx context.Context, orderID string, lines []Line) (string, map[string]int32, error) {
	ctx, span := tracer.Start(ctx, "inventory.Reserve", trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attribute.String("order.id", orderID), attribute.Int("lines", len(lines))))
	defer span.End()
	req := &inventoryv1.ReserveRequest{OrderId: orderID}
	for _, l := range lines {
		req.Lines = append(req.Lines, &inventoryv1.ReserveLine{Sku: l.SKU, Quantity: l.Quantity})
	}
	res, err := i.c.Reserve(ctx, req)
	if err != nil {
		span.RecordError(err)
		return "", nil, fmt.Errorf("inventory: reserve %s: %w", orderID, err)
	}
	return res.GetId(), res.GetShort(), nil
}

// Release gives reserved stock back.
func (i *Inventory) Release(ctx context.Context, reservationID string) error {
	ctx, span := tracer.Start(ctx, "inventory.Release", trace.WithSpanKind(trace.SpanKindClient))
	defer span.End()
	res, err := i.c.Release(ctx, &inventoryv1.ReleaseRequest{ReservationId: reservationID})
	if err != nil {
		span.RecordError(err)
		return fmt.Errorf("inventory: release %s: %w", reservationID, err)
	}
	span.SetAttributes(attribute.Int("released_units", int(res.GetReleasedUnits())))
	return nil
}

// Available returns the available quantity per SKU, waiting at most
// AvailabilityTimeout.
func (i *Inventory) Available(ctx context.Context, skus []string) (map[string]int32, error) {
	ctx, span := tracer.Start(ctx, "inventory.Available", trace.WithSpanKind(trace.SpanKindClient))
	defer span.End()
	ctx, cancel := context.WithTimeout(ctx, AvailabilityTimeout)
	defer cancel()
	res, err := i.c.CheckStock(ctx, &inventoryv1.CheckStockRequest{Skus: skus}) // OK
	if err != nil {
		return nil, fmt.Errorf("inventory: check stock: %w", err)
	}
	return res.GetAvailable(), nil
}

// Watch streams stock levels of skus until ctx ends.
func (i *Inventory) Watch(ctx context.Context, skus []string, fn func(sku string, available int32)) error {
	stream, err := i.c.WatchStock(ctx, &inventoryv1.WatchStockRequest{Skus: skus}) // OK
	if err != nil {
		return err
	}
	for {
		lvl, err := stream.Recv()
		if err != nil {
			return ignoreEOF(err)
		}
		fn(lvl.GetSku(), lvl.GetAvailable())
	}
}

func ignoreEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}
