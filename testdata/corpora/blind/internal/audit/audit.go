// Package audit records who did what to which order.
package audit

import (
	"context"
	"database/sql"
	"log/slog"
	"time"
)

// Entry is one audit row.
type Entry struct {
	Actor   string
	Action  string
	OrderID string
	At      time.Time
}

// Writer writes audit entries.
type Writer interface {
	Write(ctx context.Context, e Entry) error
}

// SQLWriter writes entries to the audit table.
type SQLWriter struct{ DB *sql.DB }

func (w *SQLWriter) Write(ctx context.Context, e Entry) error {
	_, err := w.DB.ExecContext(ctx, `INSERT INTO audit (actor, action, order_id, at) VALUES ($1, $2, $3, $4)`,
		e.Actor, e.Action, e.OrderID, e.At)
	return err
}

// LogWriter logs entries; used in development.
type LogWriter struct{ Log *slog.Logger }

func (w *LogWriter) Write(ctx context.Context, e Entry) error {
	w.Log.InfoContext(ctx, "audit", "actor", e.Actor, "action", e.Action, "order", e.OrderID)
	return nil
}

// WriteDetached writes e on a context that survives the request but is
// bounded by two seconds. ctx must already be detached by the caller.
func WriteDetached(ctx context.Context, w Writer, e Entry) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	go func() {
		defer cancel()
		_ = w.Write(ctx, e)
	}()
}
