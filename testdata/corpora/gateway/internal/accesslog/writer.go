// Package accesslog stores the access logs that edge nodes upload.
package accesslog

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Line is one access log line.
type Line struct {
	Node    string
	At      time.Time
	Method  string
	Path    string
	Status  int32
	Bytes   int64
	RouteID string
}

// Writer appends lines to the access_log table in batches.
type Writer struct {
	db *sql.DB
}

// NewWriter returns a writer over db.
func NewWriter(db *sql.DB) *Writer { return &Writer{db: db} }

// Append writes lines in one transaction.
func (w *Writer) Append(ctx context.Context, lines []Line) error {
	if len(lines) == 0 {
		return nil
	}
	tx, err := w.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO access_log (node, at, method, path, status, bytes, route_id) VALUES ($1, $2, $3, $4, $5, $6, $7)`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, l := range lines {
		if _, err := stmt.ExecContext(ctx, l.Node, l.At, l.Method, l.Path, l.Status, l.Bytes, l.RouteID); err != nil {
			return fmt.Errorf("accesslog: append: %w", err)
		}
	}
	return tx.Commit()
}

// Flush waits for pending writes; the writer is synchronous, so it only checks
// that the database is still reachable.
func (w *Writer) Flush(ctx context.Context) error {
	return w.db.PingContext(ctx)
}
