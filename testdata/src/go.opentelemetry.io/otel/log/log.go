// Package log is a stub of go.opentelemetry.io/otel/log: a Logger emits a record with the
// values of the ctx it is given.
package log

import "context"

// Record is one log record.
type Record struct{ body string }

// SetBody sets the record's body.
func (r *Record) SetBody(s string) { r.body = s }

// EnabledParameters describe a record about to be emitted.
type EnabledParameters struct{}

// Logger emits log records.
type Logger interface {
	Emit(ctx context.Context, record Record)
	Enabled(ctx context.Context, param EnabledParameters) bool
}
