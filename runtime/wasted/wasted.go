// Package wasted counts the work a gRPC server does for callers that have already given up.
//
// When a handler returns after its ctx was cancelled or expired, everything it did after that
// moment was wasted: nobody was waiting for the answer. The Node.js article deadlinelint is built
// from asks for exactly this: "When a handler completes after cancellation, increment a
// wasted-work counter and record the elapsed time. That counter tells you directly whether
// cancellation is actually stopping work." Static analysis finds the lost deadlines it can see;
// this counter finds the rest, in production.
//
// The interceptors record, per method, as OpenTelemetry metrics:
//
//   - deadlinelint.server.wasted_calls (counter): calls whose handler returned after its ctx
//     was done (later than a small slack: a handler that stops on ctx.Done() wasted nothing);
//   - deadlinelint.server.wasted_duration (histogram, seconds): how long each of them kept
//     working past that moment — its deadline, or the moment a ctx without one was cancelled (a
//     call cancelled well before its deadline is not counted: nothing cheap tells when it was,
//     and a handler that stopped promptly must not count as waste);
//   - deadlinelint.server.ended_calls (counter): calls that ended in DeadlineExceeded or
//     Canceled, with the code as the rpc.grpc.status_code attribute.
//
// Every measurement carries the full method name as the rpc.method attribute. Install both
// interceptors on the server, first in the chain so that they see the handler as the caller
// does:
//
//	w, err := wasted.New(otel.GetMeterProvider())
//	srv := grpc.NewServer(grpc.ChainUnaryInterceptor(w.Unary()), grpc.ChainStreamInterceptor(w.Stream()))
//
// In tests, read them back through the OpenTelemetry SDK's ManualReader: package wastedtest does
// it in one call, and the example shows what it reads.
package wasted

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// The names of the instruments.
const (
	WastedCalls    = "deadlinelint.server.wasted_calls"
	WastedDuration = "deadlinelint.server.wasted_duration"
	EndedCalls     = "deadlinelint.server.ended_calls"
)

// Interceptors measure wasted work; make them with New.
type Interceptors struct {
	slack    time.Duration
	wasted   metric.Int64Counter
	duration metric.Float64Histogram
	ended    metric.Int64Counter

	mu      sync.RWMutex
	methods map[string]metric.MeasurementOption // the rpc.method attribute set of each method
}

// An Option changes what the interceptors count.
type Option func(*Interceptors)

// WithSlack sets how long after its ctx was done a handler may return and not count as wasted
// work (5ms by default): a handler that stops on ctx.Done() returns a moment after, as the
// scheduler allows, and did nothing for nobody.
func WithSlack(d time.Duration) Option { return func(w *Interceptors) { w.slack = d } }

// New returns interceptors recording through meters of mp.
func New(mp metric.MeterProvider, opts ...Option) (*Interceptors, error) {
	m := mp.Meter("github.com/deadlinelint/deadlinelint/runtime/wasted")
	w := &Interceptors{slack: 5 * time.Millisecond, methods: make(map[string]metric.MeasurementOption)}
	for _, o := range opts {
		o(w)
	}
	var errs []error
	var err error
	w.wasted, err = m.Int64Counter(WastedCalls, metric.WithUnit("{call}"),
		metric.WithDescription("Calls whose handler returned after the caller's deadline or cancellation."))
	errs = append(errs, err)
	w.duration, err = m.Float64Histogram(WastedDuration, metric.WithUnit("s"),
		metric.WithDescription("How long a handler kept working after the caller's deadline or cancellation."))
	errs = append(errs, err)
	w.ended, err = m.Int64Counter(EndedCalls, metric.WithUnit("{call}"),
		metric.WithDescription("Calls that ended in DeadlineExceeded or Canceled."))
	errs = append(errs, err)
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("wasted: creating instruments: %w", err)
	}
	return w, nil
}

// Unary returns the unary server interceptor.
func (w *Interceptors) Unary() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		watch := w.watch(ctx)
		resp, err := handler(ctx, req)
		w.record(ctx, info.FullMethod, watch, err)
		return resp, err
	}
}

// Stream returns the stream server interceptor.
func (w *Interceptors) Stream() grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		ctx := ss.Context()
		watch := w.watch(ctx)
		err := handler(srv, ss)
		w.record(ctx, info.FullMethod, watch, err)
		return err
	}
}

// A doneWatch notes when a ctx was done, if it was before the handler returned.
type doneWatch struct {
	mu   sync.Mutex
	at   time.Time
	stop func() bool
}

// watch starts watching a ctx whose moment of being done cannot be known otherwise: one that can
// be cancelled but has no deadline. A ctx with a deadline needs no watch when it expires (the
// moment is the deadline); a ctx that can never be done needs none at all. context.AfterFunc is
// most of the interceptors' cost, so it is only paid where it is needed.
func (w *Interceptors) watch(ctx context.Context) *doneWatch {
	if ctx.Done() == nil {
		return nil
	}
	if _, ok := ctx.Deadline(); ok {
		return nil
	}
	d := &doneWatch{}
	d.stop = context.AfterFunc(ctx, func() {
		now := time.Now()
		d.mu.Lock()
		d.at = now
		d.mu.Unlock()
	})
	return d
}

// doneAt returns when ctx was done, if it was done before the handler returned at end and that
// moment is known: the moment the watch saw a cancellation, or the deadline, once it has passed.
// A ctx with a deadline cancelled well before it (the client gave up early) was done at a moment
// no watch recorded: not known, so not counted as wasted.
func doneAt(ctx context.Context, d *doneWatch, end time.Time) (time.Time, bool) {
	if d != nil {
		if d.stop() {
			return time.Time{}, false // stopped before it ran: not done
		}
		d.mu.Lock()
		at := d.at
		d.mu.Unlock()
		if at.IsZero() {
			at = end // done just as the handler returned: the watch has not stored it yet
		}
		return at, true
	}
	// Expired, or cancelled: grpc-go cancels the ctx when the client resets the stream, which a
	// client whose own deadline passed does a moment before the server's deadline passes. Once
	// the deadline has passed, it is a moment by which the ctx was done.
	if dl, ok := ctx.Deadline(); ok && ctx.Err() != nil && !dl.After(end) {
		return dl, true
	}
	return time.Time{}, false
}

// record records one call of method, whose handler returned err now.
func (w *Interceptors) record(ctx context.Context, method string, d *doneWatch, err error) {
	if d == nil && ctx.Err() == nil && err == nil {
		return // the common case: answered in time
	}
	end := time.Now()
	if at, ok := doneAt(ctx, d, end); ok && end.Sub(at) > w.slack {
		attrs := w.attrs(method)
		w.wasted.Add(context.Background(), 1, attrs)
		w.duration.Record(context.Background(), end.Sub(at).Seconds(), attrs)
	}
	var code codes.Code
	switch {
	case err != nil:
		code = status.Code(err)
		if code == codes.Unknown {
			code = status.FromContextError(err).Code()
		}
	case ctx.Err() != nil:
		code = status.FromContextError(ctx.Err()).Code()
	}
	if code == codes.DeadlineExceeded || code == codes.Canceled {
		w.ended.Add(context.Background(), 1, w.attrs(method), metric.WithAttributes(attribute.String("rpc.grpc.status_code", code.String())))
	}
}

// attrs returns the attribute option of method, made once per method.
func (w *Interceptors) attrs(method string) metric.MeasurementOption {
	w.mu.RLock()
	o, ok := w.methods[method]
	w.mu.RUnlock()
	if ok {
		return o
	}
	o = metric.WithAttributeSet(attribute.NewSet(attribute.String("rpc.method", method)))
	w.mu.Lock()
	w.methods[method] = o
	w.mu.Unlock()
	return o
}
