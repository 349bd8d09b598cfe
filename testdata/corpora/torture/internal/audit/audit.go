// Package audit writes the append-only audit trail.
package audit

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"
)

// Entry is one audit row.
type Entry struct {
	Actor   string
	Action  string
	Subject string
	Detail  map[string]any
	At      time.Time
}

// Writer appends audit rows.
type Writer struct {
	db *sql.DB
}

// NewWriter returns a writer on db.
func NewWriter(db *sql.DB) *Writer { return &Writer{db: db} }

// Write appends one row.
func (w *Writer) Write(ctx context.Context, e Entry) error {
	if e.At.IsZero() {
		e.At = time.Now()
	}
	detail, err := json.Marshal(e.Detail)
	if err != nil {
		return err
	}
	_, err = w.db.ExecContext(ctx,
		`INSERT INTO audit_log (actor, action, subject, detail, at) VALUES ($1, $2, $3, $4, $5)`,
		e.Actor, e.Action, e.Subject, detail, e.At)
	return err
}

// Record is Write for the common case of an action on a subject.
func (w *Writer) Record(ctx context.Context, actor, action, subject string) error {
	return w.Write(ctx, Entry{Actor: actor, Action: action, Subject: subject})
}
