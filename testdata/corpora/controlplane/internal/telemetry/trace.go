package telemetry

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"time"
)

// Span is a minimal OpenTelemetry-like span.
type Span struct {
	Name    string
	TraceID string
	Links   []string
	start   time.Time
	ended   time.Time
}

type spanKey struct{}

func newTraceID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// SpanFromContext returns the active span, or nil.
func SpanFromContext(ctx context.Context) *Span {
	sp, _ := ctx.Value(spanKey{}).(*Span)
	return sp
}

// Start starts a child span of the span in ctx and returns a ctx carrying it.
func Start(ctx context.Context, name string) (context.Context, *Span) {
	sp := &Span{Name: name, start: time.Now()}
	if parent := SpanFromContext(ctx); parent != nil {
		sp.TraceID = parent.TraceID
	} else {
		sp.TraceID = newTraceID()
	}
	return context.WithValue(ctx, spanKey{}, sp), sp
}

// StartLinked starts a new trace linked to the caller's one, for work whose
// timeline should not be nested under the caller's span.
func StartLinked(ctx context.Context, name string) (context.Context, *Span) {
	nctx, sp := Start(context.Background(), name)
	if parent := SpanFromContext(ctx); parent != nil {
		sp.Links = append(sp.Links, parent.TraceID)
	}
	return nctx, sp
}

// End records the end of the span.
func (s *Span) End() {
	if s != nil {
		s.ended = time.Now()
	}
}

// CopyTraceContext returns dst carrying the span of src.
func CopyTraceContext(dst, src context.Context) context.Context {
	if sp := SpanFromContext(src); sp != nil {
		return context.WithValue(dst, spanKey{}, sp)
	}
	return dst
}
