// Package batch runs a callback over a list of ids, in a transaction or under a lock.
package batch

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"example.test/dynamic/internal/store"
)

// Each calls fn for every id in order, with the caller's ctx, and stops at the first error.
func Each(ctx context.Context, ids []string, fn func(context.Context, string) error) error {
	for _, id := range ids {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := fn(ctx, id); err != nil {
			return fmt.Errorf("%s: %w", id, err)
		}
	}
	return nil
}

// EachDetached calls fn for every id, each under a fresh budget of its own, so that a slow
// start of the list does not starve its end.
func EachDetached(ids []string, per time.Duration, fn func(context.Context, string) error) error {
	for _, id := range ids {
		ctx, cancel := context.WithTimeout(context.Background(), per)
		err := fn(ctx, id)
		cancel()
		if err != nil {
			return fmt.Errorf("%s: %w", id, err)
		}
	}
	return nil
}

// InTx runs fn in a transaction begun with ctx and commits it when fn succeeds.
func InTx(ctx context.Context, db *sql.DB, fn func(context.Context, *sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(ctx, tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// Locked runs fn while it holds the advisory lock key.
func Locked(ctx context.Context, l *store.Locks, key string, fn func(context.Context) error) error {
	if err := l.Acquire(ctx, key); err != nil {
		return err
	}
	defer l.Release(ctx, key)
	return fn(ctx)
}
