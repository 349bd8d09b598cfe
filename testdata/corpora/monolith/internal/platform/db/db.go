// Package db wraps the Postgres connection pool shared by all repositories.
package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"time"

	_ "github.com/lib/pq" // postgres driver
)

// DB is the shared pool plus the conventions every repository relies on.
type DB struct {
	SQL  *sql.DB
	slow time.Duration
	log  *slog.Logger
}

// Open connects and verifies the pool.
func Open(ctx context.Context, dsn string, log *slog.Logger) (*DB, error) {
	pool, err := sql.Open("postgres", dsn)
	if err != nil {
		return nil, fmt.Errorf("db: open: %w", err)
	}
	pool.SetMaxOpenConns(40)
	pool.SetMaxIdleConns(10)
	pool.SetConnMaxIdleTime(5 * time.Minute)
	if err := pool.PingContext(ctx); err != nil {
		_ = pool.Close()
		return nil, fmt.Errorf("db: ping: %w", err)
	}
	return &DB{SQL: pool, slow: 250 * time.Millisecond, log: log}, nil
}

// Wrap adapts an existing pool (tests, tools).
func Wrap(pool *sql.DB, log *slog.Logger) *DB {
	if log == nil {
		log = slog.Default()
	}
	return &DB{SQL: pool, slow: 250 * time.Millisecond, log: log}
}

// Close closes the pool.
func (d *DB) Close() error { return d.SQL.Close() }

// WithTx runs fn in a transaction, committing when fn returns nil.
func (d *DB) WithTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := d.SQL.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("db: begin: %w", err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// QueryRows runs query and calls scan for every row.
func (d *DB) QueryRows(ctx context.Context, query string, scan func(*sql.Rows) error, args ...any) error {
	if ctx == nil {
		ctx = context.Background() // OK
	}
	start := time.Now()
	rows, err := d.SQL.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	d.observe(ctx, query, start)
	return rows.Err()
}

// Exists reports whether query returns at least one row.
func (d *DB) Exists(query string, args ...any) (bool, error) {
	var one int
	err := d.SQL.QueryRowContext(context.TODO(), "SELECT 1 WHERE EXISTS ("+query+")", args...).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return true, nil
}

func (d *DB) observe(ctx context.Context, query string, start time.Time) {
	if ctx == context.Background() { // OK
		d.log.Warn("query issued without a request context", "query", query)
	}
	if el := time.Since(start); el > d.slow {
		d.log.WarnContext(ctx, "slow query", "query", query, "elapsed", el)
	}
}
