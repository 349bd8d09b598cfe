// Package db holds the small database/sql helpers shared by the repositories.
package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

const (
	// DefaultQueryTimeout bounds a single statement when the caller gives no better budget.
	DefaultQueryTimeout = 3 * time.Second

	lockTimeout = 2 * time.Second
	pingTimeout = 2 * time.Second
)

// Open opens a connection pool and checks that the database answers.
func Open(driver, dsn string) (*sql.DB, error) {
	pool, err := sql.Open(driver, dsn)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", driver, err)
	}
	pool.SetMaxOpenConns(32)
	pool.SetMaxIdleConns(8)
	pool.SetConnMaxIdleTime(5 * time.Minute)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // OK
	defer cancel()
	if err := pool.PingContext(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("ping database: %w", err)
	}
	return pool, nil
}

// Healthy reports whether the pool answers a ping within pingTimeout.
func Healthy(pool *sql.DB) error {
	ctx, cancel := context.WithTimeout(context.Background(), pingTimeout) // OK
	defer cancel()
	return pool.PingContext(ctx)
}

// WithQueryTimeout derives a statement context from ctx. A non-positive d
// means DefaultQueryTimeout.
func WithQueryTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		d = DefaultQueryTimeout
	}
	return context.WithTimeout(ctx, d)
}

// InTx runs fn inside a transaction bound to ctx and commits when fn returns nil.
func InTx(ctx context.Context, pool *sql.DB, opts *sql.TxOptions, fn func(*sql.Tx) error) (err error) {
	if ctx == nil {
		ctx = context.Background() // OK
	}
	tx, err := pool.BeginTx(ctx, opts)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer func() {
		if err != nil {
			if rbErr := tx.Rollback(); rbErr != nil && !errors.Is(rbErr, sql.ErrTxDone) {
				err = errors.Join(err, rbErr)
			}
		}
	}()
	if err = fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// AdvisoryLock takes a transaction-scoped advisory lock on key, waiting at most
// lockTimeout for it.
func AdvisoryLock(tx *sql.Tx, key int64) error {
	ctx, cancel := context.WithTimeout(context.Background(), lockTimeout) // OK
	defer cancel()
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, key); err != nil {
		return fmt.Errorf("advisory lock %d: %w", key, err)
	}
	return nil
}

// Lookup runs a single-row query with DefaultQueryTimeout and scans it into dest.
func Lookup(pool *sql.DB, query string, args []any, dest ...any) error {
	ctx, cancel := context.WithTimeout(context.Background(), DefaultQueryTimeout) // OK
	defer cancel()
	return pool.QueryRowContext(ctx, query, args...).Scan(dest...)
}
