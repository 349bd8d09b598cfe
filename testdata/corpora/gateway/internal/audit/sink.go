// Package audit writes the gateway's audit trail.
package audit

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Entry is one audited call.
type Entry struct {
	At        time.Time
	Method    string
	Subject   string
	AccountID string
	TenantID  string
	RequestID string
	Code      string
	Duration  time.Duration
	Peer      string
}

// Sink appends entries to the audit_log table.
type Sink struct {
	db *sql.DB
}

// NewSink returns a sink writing to db.
func NewSink(db *sql.DB) *Sink { return &Sink{db: db} }

// Write appends e.
func (s *Sink) Write(ctx context.Context, e Entry) error {
	_, err := s.db.ExecContext(ctx,
		`INSERT INTO audit_log (at, method, subject, account_id, tenant_id, request_id, code, duration_ms, peer)
		 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		e.At, e.Method, e.Subject, e.AccountID, e.TenantID, e.RequestID, e.Code, e.Duration.Milliseconds(), e.Peer)
	if err != nil {
		return fmt.Errorf("audit: write %s: %w", e.Method, err)
	}
	return nil
}
