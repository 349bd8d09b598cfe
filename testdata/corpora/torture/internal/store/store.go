// Package store is the Postgres persistence layer for vault secrets and ledger
// entries.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
)

// ErrNotFound is returned when a row does not exist.
var ErrNotFound = errors.New("store: not found")

// ErrStale is returned when an optimistic write lost a race.
var ErrStale = errors.New("store: stale version")

// Repo is the repository shared by every service.
type Repo struct {
	db  *sql.DB
	log *slog.Logger
}

// New wraps an open database handle.
func New(db *sql.DB, log *slog.Logger) *Repo {
	if log == nil {
		log = slog.Default()
	}
	return &Repo{db: db, log: log}
}

// Open connects to dsn and checks the connection with ctx.
func Open(ctx context.Context, dsn string, log *slog.Logger) (*Repo, error) {
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return nil, fmt.Errorf("open: %w", err)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("ping: %w", err)
	}
	return New(db, log), nil
}

// DB exposes the handle for ad-hoc maintenance queries.
func (r *Repo) DB() *sql.DB { return r.db }

// Close closes the handle.
func (r *Repo) Close() error { return r.db.Close() }

// Ping checks the connection.
func (r *Repo) Ping(ctx context.Context) error { return r.db.PingContext(ctx) }

// InTx runs fn in a transaction begun with ctx.
func (r *Repo) InTx(ctx context.Context, fn func(*sql.Tx) error) (err error) {
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() {
		if p := recover(); p != nil {
			_ = tx.Rollback()
			panic(p)
		}
		if err != nil {
			_ = tx.Rollback()
			return
		}
		err = tx.Commit()
	}()
	return fn(tx)
}
