// Package telemetry is a tiny tracing/metrics facade shaped like OpenTelemetry.
package telemetry

import (
	"context"
	"log/slog"
	"maps"
	"sync"
	"time"
)

type Span interface {
	End()
	RecordError(err error)
	SetAttr(key string, v any)
}

type Tracer interface {
	Start(ctx context.Context, name string) (context.Context, Span)
}

type Meter interface {
	Add(ctx context.Context, name string, delta int64)
	Observe(ctx context.Context, name string, v float64)
}

type spanKey struct{}

type logTracer struct{ log *slog.Logger }

func NewTracer(log *slog.Logger) Tracer { return logTracer{log: log} }

type logSpan struct {
	ctx   context.Context
	log   *slog.Logger
	name  string
	start time.Time
	mu    sync.Mutex
	attrs []any
	err   error
}

func (t logTracer) Start(ctx context.Context, name string) (context.Context, Span) {
	s := &logSpan{log: t.log, name: name, start: time.Now()}
	ctx = context.WithValue(ctx, spanKey{}, s)
	s.ctx = ctx
	return ctx, s
}

func (s *logSpan) End() {
	s.mu.Lock()
	defer s.mu.Unlock()
	args := append([]any{"span", s.name, "dur", time.Since(s.start)}, s.attrs...)
	if s.err != nil {
		args = append(args, "err", s.err)
	}
	s.log.DebugContext(s.ctx, "span end", args...)
}

func (s *logSpan) RecordError(err error) {
	s.mu.Lock()
	s.err = err
	s.mu.Unlock()
}

func (s *logSpan) SetAttr(key string, v any) {
	s.mu.Lock()
	s.attrs = append(s.attrs, key, v)
	s.mu.Unlock()
}

// SpanFrom returns the current span or a no-op span.
func SpanFrom(ctx context.Context) Span {
	if s, ok := ctx.Value(spanKey{}).(*logSpan); ok {
		return s
	}
	return noopSpan{}
}

type noopSpan struct{}

func (noopSpan) End()                {}
func (noopSpan) RecordError(error)   {}
func (noopSpan) SetAttr(string, any) {}

// MemMeter aggregates in memory and is exported periodically.
type MemMeter struct {
	mu       sync.Mutex
	counters map[string]int64
	gauges   map[string]float64
}

func NewMemMeter() *MemMeter {
	return &MemMeter{counters: map[string]int64{}, gauges: map[string]float64{}}
}

func (m *MemMeter) Add(_ context.Context, name string, delta int64) {
	m.mu.Lock()
	m.counters[name] += delta
	m.mu.Unlock()
}

func (m *MemMeter) Observe(_ context.Context, name string, v float64) {
	m.mu.Lock()
	m.gauges[name] = v
	m.mu.Unlock()
}

// Export pushes a snapshot to sink every interval until ctx is done.
func (m *MemMeter) Export(ctx context.Context, every time.Duration, sink func(context.Context, map[string]int64) error) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			m.mu.Lock()
			snap := maps.Clone(m.counters)
			m.mu.Unlock()
			sctx, cancel := context.WithTimeout(ctx, every/2)
			if err := sink(sctx, snap); err != nil {
				slog.WarnContext(sctx, "metrics export failed", "err", err)
			}
			cancel()
		}
	}
}
