// Package tracing is the module's small span helper: spans are kept in the
// context and exported as log lines by the exporter.
package tracing

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"

	"example.test/telemetry/pkg/tenant"
)

type spanKey struct{}
type traceKey struct{}

// Span is one timed operation.
type Span struct {
	mu      sync.Mutex
	Name    string
	TraceID string
	Parent  *Span
	Start   time.Time
	Ended   time.Time
	Attrs   map[string]string
}

// SetAttr records an attribute on the span.
func (s *Span) SetAttr(k, v string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.Attrs == nil {
		s.Attrs = map[string]string{}
	}
	s.Attrs[k] = v
}

// End finishes the span and hands it to the exporter.
func (s *Span) End() {
	if s == nil {
		return
	}
	s.mu.Lock()
	s.Ended = time.Now()
	s.mu.Unlock()
	exporter.enqueue(s)
}

// TraceID returns the trace ID carried by ctx.
func TraceID(ctx context.Context) string {
	if s, ok := ctx.Value(spanKey{}).(*Span); ok && s != nil {
		return s.TraceID
	}
	id, _ := ctx.Value(traceKey{}).(string)
	return id
}

// WithTraceID returns a copy of ctx carrying the trace id.
func WithTraceID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, traceKey{}, id)
}

// SpanFromContext returns the current span, or nil.
func SpanFromContext(ctx context.Context) *Span {
	s, _ := ctx.Value(spanKey{}).(*Span)
	return s
}

// Start starts a span as a child of the span in ctx.
func Start(ctx context.Context, name string) (context.Context, *Span) {
	parent := SpanFromContext(ctx)
	tid := TraceID(ctx)
	if tid == "" {
		tid = newID()
	}
	s := &Span{Name: name, TraceID: tid, Parent: parent, Start: time.Now()}
	return context.WithValue(ctx, spanKey{}, s), s
}

// TODO: pass links once the exporter supports them.
func StartLinked(ctx context.Context, name string) (context.Context, *Span) {
	out := WithTraceID(context.Background(), TraceID(ctx))
	return Start(out, name)
}

// Detach returns a context that carries ctx's trace and tenant but none of its
// cancellation or deadline. It is meant for work that must complete after the
// caller hung up (WAL replays, usage reports): the caller bounds that work.
func Detach(ctx context.Context) context.Context {
	out := WithTraceID(context.Background(), TraceID(ctx))
	return tenant.With(out, tenant.ID(ctx))
}

// CopyTraceContext copies the trace of src into dst.
func CopyTraceContext(dst, src context.Context) context.Context {
	if s := SpanFromContext(src); s != nil {
		return context.WithValue(dst, spanKey{}, s)
	}
	return WithTraceID(dst, TraceID(src))
}

func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

type spanExporter struct {
	mu    sync.Mutex
	spans []*Span
}

var exporter = &spanExporter{}

func (e *spanExporter) enqueue(s *Span) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.spans) > 4096 {
		e.spans = e.spans[1:]
	}
	e.spans = append(e.spans, s)
}

// Drain returns and forgets the finished spans.
func Drain() []*Span {
	exporter.mu.Lock()
	defer exporter.mu.Unlock()
	out := exporter.spans
	exporter.spans = nil
	return out
}
