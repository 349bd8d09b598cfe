package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"example.test/vectordb/internal/log"
)

// ErrKeyNotFound is returned for a missing key.
var ErrKeyNotFound = errors.New("key not found")

// MetaKV keeps coordinator metadata in a SQL table (key, value).
type MetaKV struct {
	db   *sql.DB
	root string
}

// OpenMetaKV opens the meta store and creates its table.
func OpenMetaKV(driver, dsn, root string) (*MetaKV, error) {
	db, err := sql.Open(driver, dsn)
	if err != nil {
		return nil, err
	}
	if _, err := db.Exec(`CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v BLOB)`); err != nil { // OK: ctxless — constructor, not a request scope
		db.Close()
		return nil, err
	}
	return &MetaKV{db: db, root: root}, nil
}

// DB exposes the underlying handle (credentials live beside the metadata).
func (kv *MetaKV) DB() *sql.DB { return kv.db }

func (kv *MetaKV) full(key string) string { return kv.root + "/" + strings.TrimLeft(key, "/") }

// Load returns the value at key.
func (kv *MetaKV) Load(ctx context.Context, key string) (string, error) {
	var v string
	err := kv.db.QueryRowContext(ctx, `SELECT v FROM meta WHERE k = ?`, kv.full(key)).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("%s: %w", key, ErrKeyNotFound)
	}
	return v, err
}

// Save stores value at key.
func (kv *MetaKV) Save(ctx context.Context, key, value string) error {
	_, err := kv.db.ExecContext(ctx, `INSERT INTO meta (k, v) VALUES (?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v`, kv.full(key), value)
	return err
}

// Remove deletes key.
func (kv *MetaKV) Remove(ctx context.Context, key string) error {
	_, err := kv.db.ExecContext(ctx, `DELETE FROM meta WHERE k = ?`, kv.full(key))
	return err
}

// LoadWithPrefix returns every key/value under prefix.
func (kv *MetaKV) LoadWithPrefix(ctx context.Context, prefix string) ([]string, []string, error) {
	rows, err := kv.db.QueryContext(ctx, `SELECT k, v FROM meta WHERE k LIKE ? ORDER BY k`, kv.full(prefix)+"%")
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var keys, vals []string
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, nil, err
		}
		keys = append(keys, strings.TrimPrefix(k, kv.root+"/"))
		vals = append(vals, v)
	}
	return keys, vals, rows.Err()
}

// Keys lists the keys under prefix.
func (kv *MetaKV) Keys(prefix string) ([]string, error) {
	keys, _, err := kv.LoadWithPrefix(context.TODO(), prefix)
	if err != nil {
		log.L().Warn("list keys failed", log.String("prefix", prefix), log.Err(err))
	}
	return keys, err
}

// Close closes the store.
func (kv *MetaKV) Close() error { return kv.db.Close() }
