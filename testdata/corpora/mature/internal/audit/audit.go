// Package audit writes the append-only audit trail of stock changes.
package audit

import (
	"context"
	"database/sql"
	"encoding/json"
	"log/slog"
	"time"
)

// Entry is one audited action.
type Entry struct {
	Actor    string
	Action   string
	Resource string
	Detail   map[string]string
	At       time.Time
}

// Writer appends entries to the audit_log table.
type Writer struct {
	db      *sql.DB
	log     *slog.Logger
	timeout time.Duration
}

// NewWriter returns a Writer whose detached writes are bounded by timeout.
func NewWriter(db *sql.DB, log *slog.Logger, timeout time.Duration) *Writer {
	return &Writer{db: db, log: log, timeout: timeout}
}

// Record writes e under the caller's ctx.
func (w *Writer) Record(ctx context.Context, e Entry) error {
	if e.At.IsZero() {
		e.At = time.Now().UTC()
	}
	detail, err := json.Marshal(e.Detail)
	if err != nil {
		return err
	}
	_, err = w.db.ExecContext(ctx,
		`INSERT INTO audit_log (actor, action, resource, detail, at) VALUES ($1, $2, $3, $4, $5)`,
		e.Actor, e.Action, e.Resource, detail, e.At)
	return err
}

// RecordDetached writes e in the background. The row is written even when the
// caller's ctx is cancelled right after this returns.
func (w *Writer) RecordDetached(ctx context.Context, e Entry) {
	//deadlinelint:detach the audit trail must not lose a row because the client hung up; bounded by w.timeout
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), w.timeout) // OK
	go func() {
		defer cancel()
		if err := w.Record(actx, e); err != nil {
			w.log.ErrorContext(actx, "audit write failed", "action", e.Action, "resource", e.Resource, "err", err)
		}
	}()
}
