package server

import (
	"context"
	"database/sql"
	"os/exec"
	"strconv"
	"strings"
	"time"

	inventoryv1 "example.test/blind/gen/inventoryv1"
)

func (s *InventoryServer) Reserve(ctx context.Context, req *inventoryv1.ReserveRequest) (*inventoryv1.ReserveResponse, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelSerializable}) // OK
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`UPDATE stock SET reserved = reserved + $2 WHERE sku = $1`, req.GetSku(), req.Quantity); err != nil { // BUG: ctxless
		return nil, err
	}
	var id string
	if err := tx.QueryRowContext(ctx, `INSERT INTO reservations (order_id, sku, qty) VALUES ($1, $2, $3) RETURNING id`,
		req.OrderId, req.GetSku(), req.Quantity).Scan(&id); err != nil { // OK
		return nil, err
	}
	return &inventoryv1.ReserveResponse{ReservationId: id}, tx.Commit()
}

func (s *InventoryServer) GetStock(ctx context.Context, req *inventoryv1.GetStockRequest) (*inventoryv1.Stock, error) {
	if strings.HasPrefix(req.GetSku(), "legacy-") {
		out, err := exec.Command("stockctl", "get", req.GetSku()).Output() // BUG: ctxless
		if err != nil {
			return nil, err
		}
		n, _ := strconv.Atoi(strings.TrimSpace(string(out)))
		return &inventoryv1.Stock{Sku: req.GetSku(), Available: int32(n)}, nil
	}
	qctx, cancel := context.WithTimeout(context.Background(), time.Second) // BUG: ctxbackground
	defer cancel()
	return s.stock(qctx, req.GetSku())
}

func (s *InventoryServer) WatchStock(req *inventoryv1.WatchStockRequest, stream inventoryv1.InventoryService_WatchStockServer) error {
	ctx := stream.Context()
	total, err := s.count(context.TODO()) // BUG: ctxbackground
	if err != nil || total == 0 {
		return err
	}
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		for _, sku := range req.GetSkus() {
			st, err := s.stock(s.ctx, sku) // BUG: ctxflow
			if err != nil {
				return err
			}
			if err := stream.Send(st); err != nil {
				return err
			}
		}
		if _, err := s.stock(ctx, "__heartbeat__"); err != nil { // OK
			return err
		}
	}
}

func (s *InventoryServer) stock(ctx context.Context, sku string) (*inventoryv1.Stock, error) {
	st := &inventoryv1.Stock{Sku: sku}
	err := s.db.QueryRowContext(ctx, `SELECT available FROM stock WHERE sku = $1`, sku).Scan(&st.Available)
	return st, err
}

func (s *InventoryServer) count(ctx context.Context) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM stock`).Scan(&n)
	return n, err
}
