// Package telemetry holds the control plane's small logging, metric and tracing helpers.
package telemetry

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"

	"google.golang.org/grpc/metadata"
)

type spanKey struct{}

// Span is a unit of traced work. Spans are exported by the process's span sink.
type Span struct {
	TraceID string
	SpanID  string
	Name    string
	Links   []string
	start   time.Time
	mu      sync.Mutex
	attrs   map[string]string
}

func newID(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// SpanFrom returns the span carried by ctx, or nil.
func SpanFrom(ctx context.Context) *Span {
	s, _ := ctx.Value(spanKey{}).(*Span)
	return s
}

// TraceID returns the trace id carried by ctx, or "".
func TraceID(ctx context.Context) string {
	if s := SpanFrom(ctx); s != nil {
		return s.TraceID
	}
	return ""
}

// WithSpan returns a copy of ctx carrying s.
func WithSpan(ctx context.Context, s *Span) context.Context {
	return context.WithValue(ctx, spanKey{}, s)
}

// StartSpan starts a child span of the span in ctx.
func StartSpan(ctx context.Context, name string) (context.Context, *Span) {
	trace := TraceID(ctx)
	if trace == "" {
		trace = newID(16)
	}
	s := &Span{TraceID: trace, SpanID: newID(8), Name: name, start: time.Now()}
	return WithSpan(ctx, s), s
}

func StartLinked(ctx context.Context, name string) (context.Context, *Span) {
	s := &Span{TraceID: newID(16), SpanID: newID(8), Name: name, start: time.Now()}
	if parent := TraceID(ctx); parent != "" {
		s.Links = append(s.Links, parent)
	}
	return WithSpan(context.Background(), s), s
}

// Detached returns a context carrying ctx's span and incoming metadata but none of its
// cancellation or deadline. It is for work that must finish after the caller went away
// (the audit trail, compensating writes); callers put their own bound on that work.
func Detached(ctx context.Context) context.Context {
	out := context.Background()
	if s := SpanFrom(ctx); s != nil {
		out = WithSpan(out, s)
	}
	if md, ok := metadata.FromIncomingContext(ctx); ok {
		out = metadata.NewIncomingContext(out, md)
	}
	return out
}

// SetAttr records an attribute on the span.
func (s *Span) SetAttr(k, v string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.attrs == nil {
		s.attrs = map[string]string{}
	}
	s.attrs[k] = v
}

// End finishes the span.
func (s *Span) End() {
	if s == nil {
		return
	}
	spanDurations.Record(context.Background(), time.Since(s.start).Seconds(), s.Name)
}
