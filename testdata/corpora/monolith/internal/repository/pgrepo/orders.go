package pgrepo

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"example.test/monolith/internal/platform/db"
	"example.test/monolith/internal/repository"
)

// Orders implements repository.OrderStore.
type Orders struct{ db *db.DB }

var _ repository.OrderStore = (*Orders)(nil)

// NewOrders returns the Postgres order store.
func NewOrders(d *db.DB) *Orders { return &Orders{db: d} }

func (r *Orders) Insert(ctx context.Context, o *repository.Order) error {
	items, err := json.Marshal(o.Items)
	if err != nil {
		return err
	}
	return r.db.WithTx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx,
			`INSERT INTO orders (account_id, items, status, total_minor, tax_minor, currency)
			 VALUES ($1, $2, $3, $4, $5, $6) RETURNING id, created_at`,
			o.AccountID, items, o.Status, o.TotalMinor, o.TaxMinor, o.Currency).Scan(&o.ID, &o.CreatedAt); err != nil {
			return err
		}
		for _, it := range o.Items {
			if _, err := tx.ExecContext(ctx,
				`INSERT INTO stock_holds (order_id, sku, quantity) VALUES ($1, $2, $3)`, o.ID, it.SKU, it.Quantity); err != nil {
				return err
			}
		}
		return nil
	})
}

func (r *Orders) Get(ctx context.Context, id string) (*repository.Order, error) {
	var o repository.Order
	var items []byte
	var shipment sql.NullString
	err := r.db.SQL.QueryRowContext(ctx,
		`SELECT id, account_id, items, status, total_minor, tax_minor, currency, shipment_id, created_at FROM orders WHERE id = $1`, id,
	).Scan(&o.ID, &o.AccountID, &items, &o.Status, &o.TotalMinor, &o.TaxMinor, &o.Currency, &shipment, &o.CreatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, repository.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	o.ShipmentID = shipment.String
	return &o, json.Unmarshal(items, &o.Items)
}

func (r *Orders) List(ctx context.Context, accountID, status string, limit int) ([]repository.Order, error) {
	var out []repository.Order
	err := r.db.QueryRows(ctx,
		`SELECT id, account_id, status, total_minor, currency, COALESCE(shipment_id, ''), created_at FROM orders
		 WHERE account_id = $1 AND ($2 = '' OR status = $2) ORDER BY created_at DESC LIMIT $3`,
		func(rows *sql.Rows) error {
			var o repository.Order
			if err := rows.Scan(&o.ID, &o.AccountID, &o.Status, &o.TotalMinor, &o.Currency, &o.ShipmentID, &o.CreatedAt); err != nil {
				return err
			}
			out = append(out, o)
			return nil
		}, accountID, status, limit)
	return out, err
}

func (r *Orders) UpdateStatus(ctx context.Context, id, from, to string) error {
	res, err := r.db.SQL.ExecContext(ctx, `UPDATE orders SET status = $3 WHERE id = $1 AND status = $2`, id, from, to)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return repository.ErrConflict
	}
	return nil
}

func (r *Orders) ReleaseHold(ctx context.Context, orderID string) error {
	_, err := r.db.SQL.ExecContext(ctx, `DELETE FROM stock_holds WHERE order_id = $1`, orderID)
	return err
}

func (r *Orders) InsertRefund(ctx context.Context, rf *repository.Refund) error {
	return r.db.SQL.QueryRowContext(ctx,
		`INSERT INTO refunds (order_id, amount_minor, provider_ref) VALUES ($1, $2, $3) RETURNING id`,
		rf.OrderID, rf.AmountMinor, rf.ProviderRef).Scan(&rf.ID)
}

func (r *Orders) Changes(ctx context.Context, id string, since time.Time) ([]repository.Order, error) {
	var out []repository.Order
	err := r.db.QueryRows(ctx,
		`SELECT o.id, o.status, h.changed_at FROM order_history h JOIN orders o ON o.id = h.order_id
		 WHERE h.order_id = $1 AND h.changed_at > $2 ORDER BY h.changed_at`,
		func(rows *sql.Rows) error {
			var o repository.Order
			if err := rows.Scan(&o.ID, &o.Status, &o.CreatedAt); err != nil {
				return err
			}
			out = append(out, o)
			return nil
		}, id, since)
	return out, err
}
