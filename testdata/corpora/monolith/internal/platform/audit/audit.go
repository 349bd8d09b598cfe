// Package audit writes the compliance audit trail.
package audit

import (
	"context"
	"database/sql"
	"encoding/json"
	"log/slog"
	"time"
)

// Entry is one audit row.
type Entry struct {
	Actor    string
	Action   string
	Resource string
	Outcome  string
	At       time.Time
	Meta     map[string]string
}

// Writer inserts audit rows.
type Writer struct {
	db     *sql.DB
	budget time.Duration
	log    *slog.Logger
}

// NewWriter returns a writer; budget bounds each write made after the request is gone.
func NewWriter(db *sql.DB, budget time.Duration, log *slog.Logger) *Writer {
	return &Writer{db: db, budget: budget, log: log}
}

// Budget is the time allowed for one detached audit write.
func (w *Writer) Budget() time.Duration { return w.budget }

// Write inserts e.
func (w *Writer) Write(ctx context.Context, e Entry) error {
	if ctx == nil {
		ctx = context.Background() // OK
	}
	if e.At.IsZero() {
		e.At = time.Now().UTC()
	}
	meta, _ := json.Marshal(e.Meta)
	_, err := w.db.ExecContext(ctx,
		`INSERT INTO audit_log (actor, action, resource, outcome, at, meta) VALUES ($1, $2, $3, $4, $5, $6)`,
		e.Actor, e.Action, e.Resource, e.Outcome, e.At, meta)
	return err
}

// WriteAsync records e without making the caller wait for the insert.
func (w *Writer) WriteAsync(ctx context.Context, e Entry) {
	dctx := context.WithoutCancel(ctx)
	// ^BUG: detach
	go func() {
		if err := w.Write(dctx, e); err != nil {
			w.log.Error("audit write failed", "action", e.Action, "resource", e.Resource, "err", err)
		}
	}()
}
