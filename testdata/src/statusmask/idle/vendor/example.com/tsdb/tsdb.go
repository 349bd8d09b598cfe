// Package tsdb is a dependency (it lies under vendor/): the analysis sees its syntax only, and
// learns from it which functions do no work with their ctx.
package tsdb

import (
	"context"
	"errors"
)

// Appender collects samples in memory until Commit.
type Appender struct{ n int }

func (a *Appender) Append(v float64) error {
	if v < 0 {
		return errors.New("negative sample")
	}
	a.n++
	return nil
}

func (a *Appender) Commit() error { return nil }

type head struct{}

// appender never refers to its ctx.
func (h *head) appender(_ context.Context) *Appender { return &Appender{} }

type DB struct {
	h     head
	flush chan struct{}
}

// Appender only hands its ctx to one that never refers to it.
func (db *DB) Appender(ctx context.Context) *Appender { return db.h.appender(ctx) }

// Compact ignores its ctx: its error is never one of that ctx.
func (db *DB) Compact(ctx context.Context, level int) error {
	if level < 0 {
		return errors.New("bad level")
	}
	return nil
}

// Flush waits on its ctx: its error may be the ctx's.
func (db *DB) Flush(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case db.flush <- struct{}{}:
		return nil
	}
}

// Snapshot hands its ctx to Flush, which works with it.
func (db *DB) Snapshot(ctx context.Context) error { return db.Flush(ctx) }
