// Package audit records who changed what in the catalog.
package audit

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Entry is one audit record.
type Entry struct {
	Actor  string
	Action string // "update", "delete", "shutdown"
	ItemID string
}

// Writer appends entries to the audit_log table.
type Writer struct {
	db  *sql.DB
	now func() time.Time
}

// NewWriter returns a Writer that appends to the audit_log table of db.
func NewWriter(db *sql.DB) *Writer {
	return &Writer{db: db, now: time.Now}
}

// Write appends e to the log. It gives up when ctx ends.
func (w *Writer) Write(ctx context.Context, e Entry) error {
	const insert = `INSERT INTO audit_log (at, actor, action, item_id) VALUES ($1, $2, $3, $4)`
	if _, err := w.db.ExecContext(ctx, insert, w.now().UTC(), e.Actor, e.Action, e.ItemID); err != nil {
		return fmt.Errorf("audit %s of %q: %w", e.Action, e.ItemID, err)
	}
	return nil
}
