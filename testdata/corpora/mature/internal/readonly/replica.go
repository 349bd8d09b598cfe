// Package readonly serves the read half of InventoryService from a streaming
// replica. Writes fall through to the embedded Unimplemented methods.
package readonly

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	inventoryv1 "example.test/mature/gen/inventory/v1"
)

// Replica implements the read methods of inventoryv1.InventoryServiceServer.
type Replica struct {
	inventoryv1.UnimplementedInventoryServiceServer

	db           *sql.DB
	queryTimeout time.Duration
}

// NewReplica returns a Replica reading from db.
func NewReplica(db *sql.DB, queryTimeout time.Duration) *Replica {
	return &Replica{db: db, queryTimeout: queryTimeout}
}

// GetItem reads one item from the replica.
func (r *Replica) GetItem(ctx context.Context, req *inventoryv1.GetItemRequest) (*inventoryv1.GetItemResponse, error) {
	ctx, cancel := context.WithTimeout(ctx, r.queryTimeout) // OK
	defer cancel()
	it := &inventoryv1.Item{}
	err := r.db.QueryRowContext(ctx,
		`SELECT sku, name, warehouse, quantity, unit_price_cents FROM items WHERE sku = $1`, req.GetSku()).
		Scan(&it.Sku, &it.Name, &it.Warehouse, &it.Quantity, &it.UnitPriceCents)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, status.Errorf(codes.NotFound, "sku %q not found", req.GetSku())
	}
	if err != nil {
		return nil, status.Error(codes.Unavailable, "replica unavailable")
	}
	return &inventoryv1.GetItemResponse{Item: it}, nil
}

// ListItems pages through one warehouse on the replica.
func (r *Replica) ListItems(ctx context.Context, req *inventoryv1.ListItemsRequest) (*inventoryv1.ListItemsResponse, error) {
	limit := req.GetPageSize()
	if limit <= 0 || limit > 500 {
		limit = 50
	}
	qctx, cancel := context.WithTimeout(context.Background(), r.queryTimeout) // BUG: ctxbackground
	defer cancel()
	rows, err := r.db.QueryContext(qctx,
		`SELECT sku, name, warehouse, quantity, unit_price_cents FROM items WHERE warehouse = $1 AND sku > $2 ORDER BY sku LIMIT $3`,
		req.GetWarehouse(), req.GetPageToken(), limit)
	if err != nil {
		return nil, status.Error(codes.Unavailable, "replica unavailable")
	}
	defer rows.Close()
	resp := &inventoryv1.ListItemsResponse{}
	for rows.Next() {
		it := &inventoryv1.Item{}
		if err := rows.Scan(&it.Sku, &it.Name, &it.Warehouse, &it.Quantity, &it.UnitPriceCents); err != nil {
			return nil, status.Error(codes.Internal, err.Error())
		}
		resp.Items = append(resp.Items, it)
	}
	if err := rows.Err(); err != nil {
		return nil, status.Error(codes.Unavailable, "replica unavailable")
	}
	if n := len(resp.Items); n == int(limit) {
		resp.NextPageToken = resp.Items[n-1].GetSku()
	}
	return resp, nil
}
