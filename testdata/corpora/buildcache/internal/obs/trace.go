package obs

import (
	"context"
	"strconv"
	"sync/atomic"
	"time"
)

type ctxKey int

const traceKey ctxKey = 0

var spanSeq atomic.Int64

// TraceID returns the trace id carried by ctx, or "".
func TraceID(ctx context.Context) string {
	v, _ := ctx.Value(traceKey).(string)
	return v
}

// WithTraceID returns a copy of ctx carrying id.
func WithTraceID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, traceKey, id)
}

// Detach returns a context that carries the trace of ctx but none of its
// cancellation or deadline: for hand-offs that must finish after the caller
// has gone (replication, audit rows). Callers bound the work themselves.
func Detach(ctx context.Context) context.Context {
	return WithTraceID(context.Background(), TraceID(ctx))
}

// Span is a timed section of a trace.
type Span struct {
	name   string
	parent string
	start  time.Time
}

// StartSpan starts a child span of the trace in ctx.
func StartSpan(ctx context.Context, name string) (context.Context, *Span) {
	sp := &Span{name: name, parent: TraceID(ctx), start: time.Now()}
	return WithTraceID(ctx, sp.parent+"/"+strconv.FormatInt(spanSeq.Add(1), 10)), sp
}

func StartLinked(ctx context.Context, name string) (context.Context, *Span) {
	sp := &Span{name: name, parent: TraceID(ctx), start: time.Now()}
	return WithTraceID(context.Background(), "link:"+sp.parent), sp
}

// End finishes the span.
func (s *Span) End() { _ = time.Since(s.start) }
