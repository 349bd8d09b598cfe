package kv

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// SQLStore keeps the key space in one table of a SQL database.
type SQLStore struct {
	db    *sql.DB
	table string
}

// OpenSQL opens the store at dsn and makes sure its table exists.
func OpenSQL(ctx context.Context, driver, dsn, table string) (*SQLStore, error) {
	db, err := sql.Open(driver, dsn)
	if err != nil {
		return nil, err
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, err
	}
	if _, err := db.ExecContext(ctx, fmt.Sprintf(
		"CREATE TABLE IF NOT EXISTS %s (k BLOB PRIMARY KEY, v BLOB, ver INTEGER)", table)); err != nil {
		db.Close()
		return nil, err
	}
	return &SQLStore{db: db, table: table}, nil
}

// NewSQLStore wraps an open database.
func NewSQLStore(db *sql.DB, table string) *SQLStore { return &SQLStore{db: db, table: table} }

// DB exposes the handle for the schema tools.
func (s *SQLStore) DB() *sql.DB { return s.db }

func (s *SQLStore) Get(ctx context.Context, key []byte) ([]byte, uint64, error) {
	var v []byte
	var ver uint64
	err := s.db.QueryRowContext(ctx, "SELECT v, ver FROM "+s.table+" WHERE k = ?", key).Scan(&v, &ver)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, 0, ErrNotFound
	}
	return v, ver, err
}

func (s *SQLStore) Put(ctx context.Context, key, val []byte) (uint64, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	var ver uint64
	if err := tx.QueryRowContext(ctx, "SELECT COALESCE(MAX(ver), 0) + 1 FROM "+s.table).Scan(&ver); err != nil {
		tx.Rollback()
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO "+s.table+" (k, v, ver) VALUES (?, ?, ?)", key, val, ver); err != nil {
		tx.Rollback()
		return 0, err
	}
	return ver, tx.Commit()
}

func (s *SQLStore) Delete(ctx context.Context, key []byte) error {
	_, err := s.db.ExecContext(ctx, "DELETE FROM "+s.table+" WHERE k = ?", key)
	return err
}

func (s *SQLStore) Scan(ctx context.Context, start, end []byte, fn func(k, v []byte) bool) error {
	rows, err := s.db.QueryContext(ctx, "SELECT k, v FROM "+s.table+" WHERE k >= ? AND (? = '' OR k < ?) ORDER BY k", start, end, end)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var k, v []byte
		if err := rows.Scan(&k, &v); err != nil {
			return err
		}
		if !fn(k, v) {
			break
		}
	}
	return rows.Err()
}
