// Package repo stores orders.
package repo

import (
	"context"
	"database/sql"
	"errors"
	"time"

	ordersv1 "example.test/blind/gen/ordersv1"
)

// ErrNotFound is returned when an order does not exist.
var ErrNotFound = errors.New("order not found")

// OrderRepo is the storage the order service needs.
type OrderRepo interface {
	Get(ctx context.Context, id string) (*ordersv1.Order, error)
	Insert(ctx context.Context, o *ordersv1.Order) error
	SetStatus(ctx context.Context, id, status string) error
	ListByCustomer(ctx context.Context, customerID string, fn func(*ordersv1.Order) error) error
	Archive(ctx context.Context, id string) error
}

// PG is the Postgres implementation.
type PG struct {
	db *sql.DB
}

// NewPG checks the connection and returns a repository.
func NewPG(db *sql.DB) (*PG, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // OK: constructor
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		return nil, err
	}
	return &PG{db: db}, nil
}

func (r *PG) Get(ctx context.Context, id string) (*ordersv1.Order, error) {
	o := &ordersv1.Order{Id: id}
	err := r.db.QueryRowContext(ctx, `SELECT customer_id, status, total_cents FROM orders WHERE id = $1`, id).
		Scan(&o.CustomerId, &o.Status, &o.TotalCents)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	return o, err
}

func (r *PG) Insert(ctx context.Context, o *ordersv1.Order) error {
	return withTx(ctx, r.db, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO orders (id, customer_id, status) VALUES ($1, $2, 'new')`, o.Id, o.CustomerId); err != nil {
			return err
		}
		for _, l := range o.Lines {
			if _, err := tx.ExecContext(ctx, `INSERT INTO order_lines (order_id, sku, qty) VALUES ($1, $2, $3)`, o.Id, l.Sku, l.Quantity); err != nil {
				return err
			}
		}
		return nil
	})
}

func (r *PG) SetStatus(ctx context.Context, id, status string) error {
	_, err := r.db.ExecContext(ctx, `UPDATE orders SET status = $2 WHERE id = $1`, id, status)
	return err
}

func (r *PG) ListByCustomer(ctx context.Context, customerID string, fn func(*ordersv1.Order) error) error {
	rows, err := r.db.QueryContext(ctx, `SELECT id, status FROM orders WHERE customer_id = $1`, customerID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		o := &ordersv1.Order{CustomerId: customerID}
		if err := rows.Scan(&o.Id, &o.Status); err != nil {
			return err
		}
		if err := fn(o); err != nil {
			return err
		}
	}
	return rows.Err()
}

// Archive moves an order to the archive table. The move must not be
// half-done, so it runs on its own context.
func (r *PG) Archive(ctx context.Context, id string) error {
	_, err := r.db.ExecContext(context.Background(), `SELECT archive_order($1)`, id)
	return err
}

// CountStale is used by the nightly cleanup job only.
func (r *PG) CountStale(before time.Time) (int, error) {
	var n int
	err := r.db.QueryRow(`SELECT count(*) FROM orders WHERE updated_at < $1`, before).Scan(&n) // OK: not a request scope
	return n, err
}

func withTx(ctx context.Context, db *sql.DB, fn func(*sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}
