// Package store keeps the catalog's items in a SQL database.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/deadlinelint/deadlinelint/examples/catalog/catalogv1"
)

// Errors returned by SQL's methods, for callers to map to status codes.
var (
	ErrNotFound = errors.New("item not found")
	ErrConflict = errors.New("item was changed concurrently")
)

// SQL is the catalog's repository on a database/sql handle. Every method
// runs its statements with the ctx it is given.
type SQL struct {
	db *sql.DB
}

// Open checks that db is reachable and returns a repository on it.
func Open(db *sql.DB) (*SQL, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		return nil, fmt.Errorf("open catalog store: %w", err)
	}
	return &SQL{db: db}, nil
}

const itemColumns = `id, sku, name, category, price_cents, version`

// Get returns the item with the given id, or ErrNotFound.
func (s *SQL) Get(ctx context.Context, id string) (*catalogv1.Item, error) {
	row := s.db.QueryRowContext(ctx, `SELECT `+itemColumns+` FROM items WHERE id = $1`, id)
	item, err := scanItem(row)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	return item, err
}

// List returns up to limit items of category, by name.
func (s *SQL) List(ctx context.Context, category string, limit int) ([]*catalogv1.Item, error) {
	rows, err := s.db.QueryContext(ctx,
		`SELECT `+itemColumns+` FROM items WHERE category = $1 ORDER BY name LIMIT $2`, category, limit)
	if err != nil {
		return nil, err
	}
	return ScanItems(rows)
}

// Update writes item if its version is still the stored one, and returns
// it with the new version; ErrConflict otherwise.
func (s *SQL) Update(ctx context.Context, item *catalogv1.Item) (*catalogv1.Item, error) {
	res, err := s.db.ExecContext(ctx,
		`UPDATE items SET sku = $2, name = $3, category = $4, price_cents = $5, version = version + 1
		 WHERE id = $1 AND version = $6`,
		item.GetId(), item.GetSku(), item.GetName(), item.GetCategory(), item.GetPriceCents(), item.GetVersion())
	if err != nil {
		return nil, err
	}
	if n, err := res.RowsAffected(); err != nil {
		return nil, err
	} else if n == 0 {
		return nil, ErrConflict
	}
	return s.Get(ctx, item.GetId())
}

// Delete removes the item with the given id, or returns ErrNotFound.
func (s *SQL) Delete(ctx context.Context, id string) error {
	res, err := s.db.ExecContext(ctx, `DELETE FROM items WHERE id = $1`, id)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return ErrNotFound
	}
	return nil
}

// SKUs returns the SKU of every item.
func (s *SQL) SKUs(ctx context.Context) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT sku FROM items`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var skus []string
	for rows.Next() {
		var sku string
		if err := rows.Scan(&sku); err != nil {
			return nil, err
		}
		skus = append(skus, sku)
	}
	return skus, rows.Err()
}

// SetPrice sets the price of every item with the given SKU.
func (s *SQL) SetPrice(ctx context.Context, sku string, cents int64) error {
	_, err := s.db.ExecContext(ctx,
		`UPDATE items SET price_cents = $2, version = version + 1 WHERE sku = $1 AND price_cents <> $2`, sku, cents)
	return err
}

// ScanItems reads every row of rows as an item, selected as itemColumns,
// and closes rows.
func ScanItems(rows *sql.Rows) ([]*catalogv1.Item, error) {
	defer rows.Close()
	var items []*catalogv1.Item
	for rows.Next() {
		item, err := scanItem(rows)
		if err != nil {
			return nil, err
		}
		items = append(items, item)
	}
	return items, rows.Err()
}

// scanner is what *sql.Row and *sql.Rows have in common.
type scanner interface {
	Scan(dest ...any) error
}

func scanItem(s scanner) (*catalogv1.Item, error) {
	item := new(catalogv1.Item)
	if err := s.Scan(&item.Id, &item.Sku, &item.Name, &item.Category, &item.PriceCents, &item.Version); err != nil {
		return nil, err
	}
	return item, nil
}
