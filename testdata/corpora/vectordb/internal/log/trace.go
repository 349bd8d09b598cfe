package log

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"time"

	"google.golang.org/grpc/metadata"
)

type traceKey struct{}
type spanKey struct{}

// TraceIDHeader is the metadata key clients put their trace id in.
const TraceIDHeader = "x-trace-id"

// TraceID returns the trace id carried by ctx, or "".
func TraceID(ctx context.Context) string {
	v, _ := ctx.Value(traceKey{}).(string)
	return v
}

// WithTraceID returns ctx carrying the trace id.
func WithTraceID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, traceKey{}, id)
}

// NewTraceID returns a random trace id.
func NewTraceID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// TraceIDFromIncoming reads the trace id a client sent in its metadata.
func TraceIDFromIncoming(ctx context.Context) string {
	md, ok := metadata.FromIncomingContext(ctx)
	if !ok {
		return ""
	}
	if v := md.Get(TraceIDHeader); len(v) > 0 {
		return v[0]
	}
	return ""
}

// Detached returns a context carrying the trace id of ctx but none of its
// cancellation or deadline. It is for work that must finish after the RPC
// that started it has returned (segment flushes, audit rows): the line it
// logs still carries the trace id of the request that caused it.
func Detached(ctx context.Context) context.Context {
	return WithTraceID(context.Background(), TraceID(ctx))
}

// Span is a minimal in-process span; it only measures and logs.
type Span struct {
	name  string
	trace string
	start time.Time
}

// StartSpan returns ctx carrying a new span named name.
func StartSpan(ctx context.Context, name string) (context.Context, *Span) {
	sp := &Span{name: name, trace: TraceID(ctx), start: time.Now()}
	return context.WithValue(ctx, spanKey{}, sp), sp
}

// End logs the span's duration at debug level.
func (s *Span) End() {
	std.Debug("span", String("name", s.name), String("traceID", s.trace), Duration("took", time.Since(s.start)))
}
