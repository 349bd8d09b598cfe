package pgrepo

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/lib/pq"

	"example.test/monolith/internal/platform/db"
	"example.test/monolith/internal/repository"
)

// Products implements repository.ProductStore and repository.PriceRuleStore.
type Products struct {
	db            *db.DB
	searchTimeout time.Duration
}

var (
	_ repository.ProductStore   = (*Products)(nil)
	_ repository.PriceRuleStore = (*Products)(nil)
)

// NewProducts returns the Postgres catalog store.
func NewProducts(d *db.DB) *Products { return &Products{db: d, searchTimeout: 800 * time.Millisecond} }

func (r *Products) Get(ctx context.Context, sku string) (*repository.Product, error) {
	var p repository.Product
	err := r.db.SQL.QueryRowContext(ctx,
		`SELECT sku, title, description, tags, base_price_minor, currency, active, updated_at FROM products WHERE sku = $1`, sku,
	).Scan(&p.SKU, &p.Title, &p.Description, pq.Array(&p.Tags), &p.BasePriceMinor, &p.Currency, &p.Active, &p.UpdatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, repository.ErrNotFound
	}
	return &p, err
}

func (r *Products) Search(ctx context.Context, query string, tags []string, limit int) ([]repository.Product, error) {
	sctx, cancel := context.WithTimeout(context.Background(), r.searchTimeout)
	defer cancel()
	rows, err := r.db.SQL.QueryContext(sctx,
		`SELECT sku, title, base_price_minor, currency, tags FROM products
		 WHERE active AND search @@ plainto_tsquery($1) AND tags @> $2 ORDER BY ts_rank(search, plainto_tsquery($1)) DESC LIMIT $3`,
		query, pq.Array(tags), limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []repository.Product
	for rows.Next() {
		var p repository.Product
		if err := rows.Scan(&p.SKU, &p.Title, &p.BasePriceMinor, &p.Currency, pq.Array(&p.Tags)); err != nil {
			return nil, err
		}
		p.Active = true
		out = append(out, p)
	}
	return out, rows.Err()
}

func (r *Products) Upsert(ctx context.Context, p *repository.Product) error {
	return r.db.SQL.QueryRowContext(ctx,
		`INSERT INTO products (sku, title, description, tags, base_price_minor, currency, active, updated_at)
		 VALUES ($1, $2, $3, $4, $5, $6, $7, now())
		 ON CONFLICT (sku) DO UPDATE SET title = EXCLUDED.title, description = EXCLUDED.description, tags = EXCLUDED.tags,
		   base_price_minor = EXCLUDED.base_price_minor, currency = EXCLUDED.currency, active = EXCLUDED.active, updated_at = now()
		 RETURNING updated_at`,
		p.SKU, p.Title, p.Description, pq.Array(p.Tags), p.BasePriceMinor, p.Currency, p.Active).Scan(&p.UpdatedAt)
}

func (r *Products) UpsertBatch(ctx context.Context, ps []repository.Product) (int, error) {
	n := 0
	err := r.db.WithTx(ctx, func(tx *sql.Tx) error {
		stmt, err := tx.PrepareContext(ctx,
			`INSERT INTO products (sku, title, description, tags, base_price_minor, currency, active, updated_at)
			 VALUES ($1, $2, $3, $4, $5, $6, $7, now()) ON CONFLICT (sku) DO NOTHING`)
		if err != nil {
			return err
		}
		defer stmt.Close()
		for _, p := range ps {
			res, err := stmt.ExecContext(ctx, p.SKU, p.Title, p.Description, pq.Array(p.Tags), p.BasePriceMinor, p.Currency, p.Active)
			if err != nil {
				return err
			}
			k, _ := res.RowsAffected()
			n += int(k)
		}
		return nil
	})
	return n, err
}

func (r *Products) Delete(ctx context.Context, sku string) error {
	return r.db.WithTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM price_rules WHERE sku = $1`, sku); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM products WHERE sku = $1`, sku)
		return err
	})
}

func (r *Products) Reindex(ctx context.Context) error {
	_, err := r.db.SQL.ExecContext(ctx, `REINDEX INDEX CONCURRENTLY products_search_idx`)
	return err
}

func (r *Products) ForSKU(ctx context.Context, sku string) ([]repository.PriceRule, error) {
	var out []repository.PriceRule
	err := r.db.QueryRows(ctx,
		`SELECT id, sku, kind, percent_off, tier FROM price_rules WHERE sku = $1 OR sku = '*' ORDER BY priority`,
		func(rows *sql.Rows) error {
			var pr repository.PriceRule
			if err := rows.Scan(&pr.ID, &pr.SKU, &pr.Kind, &pr.PercentOff, &pr.Tier); err != nil {
				return err
			}
			out = append(out, pr)
			return nil
		}, sku)
	return out, err
}
