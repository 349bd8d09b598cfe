// Package store is the inventory service's Postgres repository.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"example.test/mature/internal/platform/sqlutil"
)

var (
	// ErrNotFound is returned when the requested row does not exist.
	ErrNotFound = errors.New("store: not found")
	// ErrInsufficientStock is returned when a reservation exceeds the stock on hand.
	ErrInsufficientStock = errors.New("store: insufficient stock")
)

// Item is one SKU in one warehouse.
type Item struct {
	SKU            string
	Name           string
	Warehouse      string
	Quantity       int64
	UnitPriceCents int64
	UpdatedAt      time.Time
}

// Reservation is stock held for an order.
type Reservation struct {
	ID        string
	SKU       string
	Quantity  int64
	Remaining int64
	CreatedAt time.Time
}

// Repo reads and writes inventory rows.
type Repo struct {
	db  *sql.DB
	log *slog.Logger
}

// New returns a Repo on db.
func New(db *sql.DB, log *slog.Logger) *Repo {
	return &Repo{db: db, log: log}
}

// DB exposes the pool for health checks.
func (r *Repo) DB() *sql.DB { return r.db }

// observe records which operations run without a request context; those are
// expected only from the maintenance workers.
func (r *Repo) observe(ctx context.Context, op string) {
	if ctx == context.Background() || ctx == context.TODO() { // OK
		r.log.Debug("store call without request context", "op", op)
		return
	}
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < 5*time.Millisecond {
		r.log.WarnContext(ctx, "store call with almost no budget left", "op", op)
	}
}

const itemColumns = `sku, name, warehouse, quantity, unit_price_cents, updated_at`

func scanItem(sc interface{ Scan(...any) error }) (Item, error) {
	var it Item
	err := sc.Scan(&it.SKU, &it.Name, &it.Warehouse, &it.Quantity, &it.UnitPriceCents, &it.UpdatedAt)
	return it, err
}

// GetItem loads one item by SKU.
func (r *Repo) GetItem(ctx context.Context, sku string) (Item, error) {
	r.observe(ctx, "get_item")
	it, err := scanItem(r.db.QueryRowContext(ctx, `SELECT `+itemColumns+` FROM items WHERE sku = $1`, sku))
	if errors.Is(err, sql.ErrNoRows) {
		return Item{}, ErrNotFound
	}
	if err != nil {
		return Item{}, fmt.Errorf("store: get item %q: %w", sku, err)
	}
	return it, nil
}

// ListItems returns up to limit items of warehouse with a SKU after the given one.
func (r *Repo) ListItems(ctx context.Context, warehouse string, limit int, after string) ([]Item, error) {
	r.observe(ctx, "list_items")
	rows, err := r.db.QueryContext(ctx,
		`SELECT `+itemColumns+` FROM items WHERE warehouse = $1 AND sku > $2 ORDER BY sku LIMIT $3`,
		warehouse, after, limit)
	if err != nil {
		return nil, fmt.Errorf("store: list items: %w", err)
	}
	defer rows.Close()
	var items []Item
	for rows.Next() {
		it, err := scanItem(rows)
		if err != nil {
			return nil, err
		}
		items = append(items, it)
	}
	return items, rows.Err()
}

// SKUExists reports whether any warehouse stocks sku.
func (r *Repo) SKUExists(ctx context.Context, sku string) (bool, error) {
	r.observe(ctx, "sku_exists")
	return sqlutil.Exists(r.db, `SELECT 1 FROM items WHERE sku = $1`, sku)
}

// HotSKUs returns the most frequently reserved SKUs of the last day.
func (r *Repo) HotSKUs(ctx context.Context, limit int) ([]string, error) {
	r.observe(ctx, "hot_skus")
	return sqlutil.CollectStrings(ctx, r.db,
		`SELECT sku FROM reservations WHERE created_at > now() - interval '1 day' GROUP BY sku ORDER BY count(*) DESC LIMIT $1`,
		limit)
}

// Warehouses lists every warehouse with stock.
func (r *Repo) Warehouses(ctx context.Context) ([]string, error) {
	return sqlutil.CollectStrings(ctx, r.db, `SELECT DISTINCT warehouse FROM items ORDER BY 1`)
}

// Reserve holds qty units of sku for orderID.
func (r *Repo) Reserve(ctx context.Context, sku string, qty int64, orderID string) (Reservation, error) {
	r.observe(ctx, "reserve")
	res := Reservation{SKU: sku, Quantity: qty}
	err := sqlutil.InTx(ctx, r.db, nil, func(tx *sql.Tx) error {
		var onHand int64
		if err := tx.QueryRowContext(ctx, `SELECT quantity FROM items WHERE sku = $1 FOR UPDATE`, sku).Scan(&onHand); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return ErrNotFound
			}
			return err
		}
		if onHand < qty {
			return ErrInsufficientStock
		}
		if _, err := tx.ExecContext(ctx, `UPDATE items SET quantity = quantity - $2, updated_at = now() WHERE sku = $1`, sku, qty); err != nil {
			return err
		}
		res.Remaining = onHand - qty
		return tx.QueryRowContext(ctx,
			`INSERT INTO reservations (sku, quantity, order_id) VALUES ($1, $2, $3) RETURNING id, created_at`,
			sku, qty, orderID).Scan(&res.ID, &res.CreatedAt)
	})
	return res, err
}

// Release returns a reservation's stock.
func (r *Repo) Release(ctx context.Context, reservationID string) (Reservation, error) {
	r.observe(ctx, "release")
	res := Reservation{ID: reservationID}
	err := sqlutil.InTx(ctx, r.db, nil, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx,
			`DELETE FROM reservations WHERE id = $1 RETURNING sku, quantity, created_at`, reservationID).
			Scan(&res.SKU, &res.Quantity, &res.CreatedAt)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		return tx.QueryRowContext(ctx,
			`UPDATE items SET quantity = quantity + $2, updated_at = now() WHERE sku = $1 RETURNING quantity`,
			res.SKU, res.Quantity).Scan(&res.Remaining)
	})
	return res, err
}

// ExpiredReservations lists reservations created before cutoff.
func (r *Repo) ExpiredReservations(ctx context.Context, cutoff time.Time) ([]string, error) {
	r.observe(ctx, "expired_reservations")
	return sqlutil.CollectStrings(ctx, r.db, `SELECT id FROM reservations WHERE created_at < $1 ORDER BY created_at`, cutoff)
}

// Adjust changes the stock of sku by delta and returns the new quantity.
func (r *Repo) Adjust(ctx context.Context, sku string, delta int64, reason string) (int64, error) {
	r.observe(ctx, "adjust")
	var qty int64
	err := sqlutil.InTx(ctx, r.db, nil, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx,
			`UPDATE items SET quantity = quantity + $2, updated_at = now() WHERE sku = $1 AND quantity + $2 >= 0 RETURNING quantity`,
			sku, delta).Scan(&qty)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrInsufficientStock
		}
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO adjustments (sku, delta, reason) VALUES ($1, $2, $3)`, sku, delta, reason)
		return err
	})
	return qty, err
}

// AvailableQuantity returns the unreserved stock of sku in warehouse ("" for all).
func (r *Repo) AvailableQuantity(ctx context.Context, warehouse, sku string) (int64, error) {
	r.observe(ctx, "available")
	var n sql.NullInt64
	err := r.db.QueryRowContext(ctx,
		`SELECT sum(quantity) FROM items WHERE sku = $1 AND ($2 = '' OR warehouse = $2)`, sku, warehouse).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store: available %q: %w", sku, err)
	}
	return n.Int64, nil
}

// Quantities returns the current quantity of each of skus.
func (r *Repo) Quantities(ctx context.Context, skus []string) (map[string]int64, error) {
	r.observe(ctx, "quantities")
	if len(skus) == 0 {
		return map[string]int64{}, nil
	}
	ph := make([]string, len(skus))
	args := make([]any, len(skus))
	for i, s := range skus {
		ph[i] = fmt.Sprintf("$%d", i+1)
		args[i] = s
	}
	rows, err := r.db.QueryContext(ctx,
		`SELECT sku, sum(quantity) FROM items WHERE sku IN (`+strings.Join(ph, ", ")+`) GROUP BY sku`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make(map[string]int64, len(skus))
	for rows.Next() {
		var sku string
		var n int64
		if err := rows.Scan(&sku, &n); err != nil {
			return nil, err
		}
		out[sku] = n
	}
	return out, rows.Err()
}

// UpsertItem inserts or replaces it.
func (r *Repo) UpsertItem(ctx context.Context, it Item) error {
	r.observe(ctx, "upsert_item")
	_, err := r.db.ExecContext(ctx,
		`INSERT INTO items (sku, name, warehouse, quantity, unit_price_cents, updated_at)
		 VALUES ($1, $2, $3, $4, $5, now())
		 ON CONFLICT (sku, warehouse) DO UPDATE SET name = $2, quantity = $4, unit_price_cents = $5, updated_at = now()`,
		it.SKU, it.Name, it.Warehouse, it.Quantity, it.UnitPriceCents)
	return err
}
