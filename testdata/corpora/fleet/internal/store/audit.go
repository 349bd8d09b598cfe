package store

import (
	"context"
	"database/sql"
	"time"
)

// AuditEntry is one row of the audit trail.
type AuditEntry struct {
	At      time.Time
	Actor   string
	Action  string
	Subject string
	Detail  string
}

// AuditLog appends to the audit_log table.
type AuditLog struct {
	db *sql.DB
}

// NewAuditLog returns an AuditLog writing to db.
func NewAuditLog(db *sql.DB) *AuditLog {
	return &AuditLog{db: db}
}

// Write appends one entry.
func (a *AuditLog) Write(ctx context.Context, e AuditEntry) error {
	if e.At.IsZero() {
		e.At = time.Now()
	}
	_, err := a.db.ExecContext(ctx, `INSERT INTO audit_log (at, actor, action, subject, detail) VALUES ($1, $2, $3, $4, $5)`,
		e.At, e.Actor, e.Action, e.Subject, e.Detail)
	return err
}

// WriteAfter records an entry for work that was done on behalf of a request that may already
// be gone (a cancelled trip, a failed charge). The caller's values (request id, actor) are kept.
func (a *AuditLog) WriteAfter(ctx context.Context, e AuditEntry) error {
	// the audit row must be written even if the caller has gone; bounded so a slow database cannot pile these up
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second) // OK
	defer cancel()
	return a.Write(wctx, e)
}
