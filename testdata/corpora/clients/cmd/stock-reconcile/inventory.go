package main

import (
	"bufio"
	"context"
	"errors"
	"os"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	inventoryv1 "example.test/clients/gen/inventory/v1"
)

// adjustWithRetry applies one correction, retrying while inventory is
// unavailable. All attempts share one 30s budget.
func adjustWithRetry(ctx context.Context, inv inventoryv1.InventoryServiceClient, sku string, delta int64, attempts int) (*inventoryv1.Item, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req := &inventoryv1.AdjustCountRequest{Sku: sku, Delta: delta, Reason: "recount"}
	var lastErr error
	for attempt := 1; attempt <= attempts; attempt++ {
		item, err := inv.AdjustCount(ctx, req) // OK
		if err == nil {
			return item, nil
		}
		if status.Code(err) != codes.Unavailable {
			return nil, err
		}
		lastErr = err
		select {
		case <-ctx.Done():
			return nil, errors.Join(lastErr, ctx.Err())
		case <-time.After(time.Duration(attempt) * 500 * time.Millisecond):
		}
	}
	return nil, lastErr
}

// checkItem returns how far the books are from the counted quantity.
func checkItem(ctx context.Context, inv inventoryv1.InventoryServiceClient, sku string, counted int64) (int64, error) {
	item, err := inv.GetItem(ctx, &inventoryv1.GetItemRequest{Sku: sku}) // OK
	if err != nil {
		return 0, err
	}
	return counted - (item.GetOnHand() + item.GetReserved()), nil
}

// releaseOrphan releases a reservation whose order no longer exists. Each
// attempt gets its own five seconds: a slow attempt must not eat the next
// one's budget.
func releaseOrphan(inv inventoryv1.InventoryServiceClient, reservationID string, attempts int) error {
	var err error
	for attempt := 0; attempt < attempts; attempt++ {
		actx, cancel := context.WithTimeout(context.Background(), 5*time.Second)                        // OK
		_, err = inv.ReleaseStock(actx, &inventoryv1.ReleaseStockRequest{ReservationId: reservationID}) // OK
		cancel()
		if err == nil || status.Code(err) == codes.NotFound {
			return nil
		}
		time.Sleep(time.Duration(attempt+1) * time.Second) // OK
	}
	return err
}

func readLines(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out, sc.Err()
}
