package admin

import (
	"context"
	"database/sql"
	"time"
)

// AuditEntry is one row of the audit log.
type AuditEntry struct {
	Who    string
	What   string
	Tenant string
	At     time.Time
}

// AuditLog writes audit rows.
type AuditLog struct {
	db *sql.DB
}

// Write inserts the entry.
func (a *AuditLog) Write(ctx context.Context, e AuditEntry) error {
	_, err := a.db.ExecContext(ctx, "INSERT INTO audit (who, what, tenant, at) VALUES ($1, $2, $3, $4)", e.Who, e.What, e.Tenant, e.At)
	return err
}

// auditContext detaches ctx for an audit write: the row must be written even
// when the client gives up right after the change it records.
func auditContext(ctx context.Context) context.Context {
	return context.WithoutCancel(ctx) // OK: detach — documented helper whose job is the detach
}
