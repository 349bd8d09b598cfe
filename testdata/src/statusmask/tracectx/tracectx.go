// Package tracectx copies a trace from one ctx to another: its source ctx is only read, and
// what it returns derives from its target.
package tracectx

import "context"

type spanKey struct{}

// CopyTrace returns trgt carrying the span src carries.
func CopyTrace(trgt, src context.Context) context.Context {
	if sp := src.Value(spanKey{}); sp != nil {
		return context.WithValue(trgt, spanKey{}, sp)
	}
	return trgt
}

// Attach returns src with trgt's span: it derives from src.
func Attach(trgt, src context.Context) context.Context {
	if sp := trgt.Value(spanKey{}); sp != nil {
		return context.WithValue(src, spanKey{}, sp)
	}
	return src
}
