package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// SQL is a Store backed by database/sql. The driver is registered by main.
type SQL struct {
	db *sql.DB
}

const schema = `
CREATE TABLE IF NOT EXISTS products (sku TEXT PRIMARY KEY, name TEXT, category TEXT, price_cents BIGINT, stock INT);
CREATE TABLE IF NOT EXISTS orders (id TEXT PRIMARY KEY, customer_id TEXT, status TEXT, total_cents BIGINT, idem_key TEXT UNIQUE, created_at TIMESTAMP);
CREATE TABLE IF NOT EXISTS audit (actor TEXT, action TEXT, ref TEXT, at TIMESTAMP);`

// OpenSQL connects and migrates. It runs once at startup, before any request
// exists, so it bounds itself.
func OpenSQL(driver, dsn string) (*SQL, error) {
	db, err := sql.Open(driver, dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(20)
	db.SetConnMaxIdleTime(5 * time.Minute)

	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("ping: %w", err)
	}
	if _, err := db.ExecContext(ctx, schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("migrate: %w", err)
	}
	return &SQL{db: db}, nil
}

func (s *SQL) GetProduct(ctx context.Context, sku string) (Product, error) {
	var p Product
	err := s.db.QueryRowContext(ctx,
		`SELECT sku, name, category, price_cents, stock FROM products WHERE sku = $1`, sku).
		Scan(&p.SKU, &p.Name, &p.Category, &p.PriceCents, &p.Stock)
	if errors.Is(err, sql.ErrNoRows) {
		return Product{}, ErrNotFound
	}
	return p, err
}

func (s *SQL) ListProducts(ctx context.Context, category string, fn func(Product) error) error {
	rows, err := s.db.QueryContext(ctx,
		`SELECT sku, name, category, price_cents, stock FROM products WHERE $1 = '' OR category = $1 ORDER BY sku`, category)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var p Product
		if err := rows.Scan(&p.SKU, &p.Name, &p.Category, &p.PriceCents, &p.Stock); err != nil {
			return err
		}
		if err := fn(p); err != nil {
			return err
		}
	}
	return rows.Err()
}

func (s *SQL) AllProducts(ctx context.Context) ([]Product, error) {
	var out []Product
	err := s.ListProducts(ctx, "", func(p Product) error {
		out = append(out, p)
		return nil
	})
	return out, err
}

func (s *SQL) CreateOrder(ctx context.Context, o Order) error {
	_, err := s.db.ExecContext(ctx,
		`INSERT INTO orders (id, customer_id, status, total_cents, idem_key, created_at) VALUES ($1,$2,$3,$4,NULLIF($5,''),$6)`,
		o.ID, o.CustomerID, o.Status, o.TotalCents, o.IdempotencyKey, o.CreatedAt)
	return err
}

func (s *SQL) GetOrder(ctx context.Context, id string) (Order, error) {
	var o Order
	err := s.db.QueryRowContext(ctx,
		`SELECT id, customer_id, status, total_cents, created_at FROM orders WHERE id = $1`, id).
		Scan(&o.ID, &o.CustomerID, &o.Status, &o.TotalCents, &o.CreatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return Order{}, ErrNotFound
	}
	return o, err
}

func (s *SQL) FindByIdempotencyKey(ctx context.Context, key string) (Order, bool, error) {
	var o Order
	err := s.db.QueryRow( // BUG: ctxless — B4: FindByIdempotencyKey is given a ctx and queries without it
		`SELECT id, customer_id, status, total_cents, created_at FROM orders WHERE idem_key = $1`, key).
		Scan(&o.ID, &o.CustomerID, &o.Status, &o.TotalCents, &o.CreatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return Order{}, false, nil
	}
	if err != nil {
		return Order{}, false, err
	}
	return o, true, nil
}

func (s *SQL) ReserveStock(ctx context.Context, items []LineItem) (err error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	// Rollback after Commit is a no-op; this covers every early return.
	defer tx.Rollback()
	for _, it := range items {
		res, err := tx.ExecContext(ctx,
			`UPDATE products SET stock = stock - $1 WHERE sku = $2 AND stock >= $1`, it.Qty, it.SKU)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrInsufficientStock
		}
	}
	return tx.Commit()
}

func (s *SQL) ReleaseStock(ctx context.Context, items []LineItem) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, it := range items {
		if _, err := tx.ExecContext(ctx, `UPDATE products SET stock = stock + $1 WHERE sku = $2`, it.Qty, it.SKU); err != nil {
			return err
		}
	}
	return tx.Commit()
}

func (s *SQL) SaveAudit(ctx context.Context, evs []AuditEvent) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO audit (actor, action, ref, at) VALUES ($1,$2,$3,$4)`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, e := range evs {
		if _, err := stmt.ExecContext(ctx, e.Actor, e.Action, e.Ref, e.At); err != nil {
			return err
		}
	}
	return tx.Commit()
}

func (s *SQL) Ping(ctx context.Context) error { return s.db.PingContext(ctx) }

func (s *SQL) Close() error { return s.db.Close() }
