// Package store is the ledger's persistence layer over database/sql.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
	// The SQL driver is registered by the binary that opens the store (kept out of this corpus:
	// nothing here depends on which one).
)

var (
	ErrNotFound          = errors.New("store: not found")
	ErrInsufficientFunds = errors.New("store: insufficient funds")
	ErrConflict          = errors.New("store: conflict")
)

// Store wraps the database handle.
type Store struct {
	db *sql.DB
}

// Open opens the database and applies the schema. The caller's ctx bounds
// the migration.
func Open(ctx context.Context, dsn string) (*Store, error) {
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open: %w", err)
	}
	db.SetMaxOpenConns(8)
	db.SetConnMaxIdleTime(5 * time.Minute)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("ping: %w", err)
	}
	s := &Store{db: db}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

func (s *Store) migrate(ctx context.Context) error {
	const schema = `
CREATE TABLE IF NOT EXISTS accounts (id TEXT PRIMARY KEY, currency TEXT NOT NULL, balance INTEGER NOT NULL, owner TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS postings (id INTEGER PRIMARY KEY AUTOINCREMENT, transfer_id TEXT, account_id TEXT, amount INTEGER, currency TEXT, at INTEGER);
CREATE TABLE IF NOT EXISTS transfers (id TEXT PRIMARY KEY, idem_key TEXT UNIQUE, status TEXT);
CREATE TABLE IF NOT EXISTS outbox (id INTEGER PRIMARY KEY AUTOINCREMENT, topic TEXT, payload BLOB, attempts INTEGER DEFAULT 0, sent_at INTEGER);
CREATE TABLE IF NOT EXISTS locks (name TEXT PRIMARY KEY, holder TEXT, expires INTEGER);
CREATE TABLE IF NOT EXISTS audit (id INTEGER PRIMARY KEY AUTOINCREMENT, actor TEXT, action TEXT, at INTEGER);`
	if _, err := s.db.ExecContext(ctx, schema); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// Ping checks the database within ctx.
func (s *Store) Ping(ctx context.Context) error { return s.db.PingContext(ctx) }
