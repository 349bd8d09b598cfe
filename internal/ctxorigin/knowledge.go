package ctxorigin

import (
	"go/types"

	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// effect is what a known API does to the ctx it is given.
type effect int

const (
	makesRoot    effect = iota + 1 // returns a new root context: no deadline, no cancellation
	derives                        // returns a child of its ctx argument
	addsDeadline                   // returns a child of its ctx argument with a deadline
	detaches                       // returns a context that keeps values but drops cancellation
)

// api is one entry of the knowledge table: the package-level function pkg.name, or, when
// recv is set, the method pkg.recv.name (an interface method or a concrete one).
type api struct {
	pkg, recv, name string
	effect          effect
	result          int // index of the context.Context result
}

// knowledge lists the functions whose effect on a ctx deadlinelint knows without looking at
// their bodies. Calls to any other function that takes and returns a ctx are followed through
// their SSA body when it is in the package, and treated as opaque otherwise.
var knowledge = []api{
	{"context", "", "Background", makesRoot, 0}, // the root of a fresh tree
	{"context", "", "TODO", makesRoot, 0},       // the same, flagged as unfinished
	{"context", "", "WithoutCancel", detaches, 0},
	{"context", "", "WithCancel", derives, 0},
	{"context", "", "WithCancelCause", derives, 0},
	{"context", "", "WithValue", derives, 0},
	{"context", "", "WithTimeout", addsDeadline, 0},
	{"context", "", "WithDeadline", addsDeadline, 0},
	{"context", "", "WithTimeoutCause", addsDeadline, 0},
	{"context", "", "WithDeadlineCause", addsDeadline, 0},
	{"os/signal", "", "NotifyContext", derives, 0},                                    // (ctx, stop)
	{typesutil.ErrgroupPath, "", "WithContext", derives, 1},                           // (*Group, ctx)
	{typesutil.MetadataPath, "", "NewOutgoingContext", derives, 0},                    // adds metadata
	{typesutil.MetadataPath, "", "AppendToOutgoingContext", derives, 0},               // adds metadata
	{typesutil.MetadataPath, "", "NewIncomingContext", derives, 0},                    // used by tests
	{"google.golang.org/grpc/peer", "", "NewContext", derives, 0},                     // adds the peer
	{"google.golang.org/grpc", "", "NewContextWithServerTransportStream", derives, 0}, // interceptors
	// OpenTelemetry: a span or baggage is attached, no deadline.
	{otelTrace, "Tracer", "Start", derives, 0}, // (ctx, span); an interface method
	{otelTrace, "", "ContextWithSpan", derives, 0},
	{otelTrace, "", "ContextWithSpanContext", derives, 0},
	{otelTrace, "", "ContextWithRemoteSpanContext", derives, 0},
	{"go.opentelemetry.io/otel/propagation", "TextMapPropagator", "Extract", derives, 0},
	{"go.opentelemetry.io/otel/baggage", "", "ContextWithBaggage", derives, 0},
}

const otelTrace = "go.opentelemetry.io/otel/trace"

// lookup returns the knowledge entry for obj, or nil.
func lookup(obj types.Object) *api {
	fn, ok := obj.(*types.Func)
	if !ok || fn == nil || fn.Pkg() == nil {
		return nil
	}
	for i := range knowledge {
		k := &knowledge[i]
		if k.recv == "" && typesutil.IsFunc(fn, k.pkg, k.name) ||
			k.recv != "" && typesutil.IsMethod(fn, k.pkg, k.recv, k.name) {
			return k
		}
	}
	return nil
}

// IsRootCall reports whether obj is context.Background or context.TODO.
func IsRootCall(obj types.Object) bool {
	k := lookup(obj)
	return k != nil && k.effect == makesRoot
}

// IsDetachCall reports whether obj is context.WithoutCancel.
func IsDetachCall(obj types.Object) bool {
	k := lookup(obj)
	return k != nil && k.effect == detaches
}

// IsDeadlineCall reports whether obj is one of the context functions that add a deadline.
func IsDeadlineCall(obj types.Object) bool {
	k := lookup(obj)
	return k != nil && k.effect == addsDeadline
}

// reader is a function or method that takes a ctx only to read values out of it, or to log
// with them: no work that could outlive the request starts there.
type reader struct {
	pkg, recv, name string // recv is "" for a package-level function
}

// readers lists the ctx-taking APIs that are not work. Matching is by package path,
// receiver type and name.
var readers = []reader{
	{"context", "", "Cause"},        // the cancellation cause: a read
	{"context", "Context", "Value"}, // a value the ctx carries
	// log/slog: a record is formatted and written synchronously, with the ctx's values.
	{"log/slog", "", "DebugContext"},
	{"log/slog", "", "InfoContext"},
	{"log/slog", "", "WarnContext"},
	{"log/slog", "", "ErrorContext"},
	{"log/slog", "", "Log"},
	{"log/slog", "", "LogAttrs"},
	{"log/slog", "Logger", "DebugContext"},
	{"log/slog", "Logger", "InfoContext"},
	{"log/slog", "Logger", "WarnContext"},
	{"log/slog", "Logger", "ErrorContext"},
	{"log/slog", "Logger", "Log"},
	{"log/slog", "Logger", "LogAttrs"},
	{"log/slog", "Logger", "Enabled"},
	{"log/slog", "Handler", "Enabled"},
	{"log/slog", "Handler", "Handle"},
	// gRPC accessors of the request's metadata, peer and method.
	{typesutil.MetadataPath, "", "FromIncomingContext"},
	{typesutil.MetadataPath, "", "FromOutgoingContext"},
	{typesutil.MetadataPath, "", "ValueFromIncomingContext"},
	{"google.golang.org/grpc/peer", "", "FromContext"},
	{typesutil.GRPCPath, "", "Method"},
	{typesutil.GRPCPath, "", "ServerTransportStreamFromContext"},
	{typesutil.GRPCPath, "", "SetHeader"},  // queues response headers
	{typesutil.GRPCPath, "", "SendHeader"}, // writes response headers on the request's stream
	{typesutil.GRPCPath, "", "SetTrailer"},
	// Loggers that keep the ctx in the entry they return, for hooks that read its values (a
	// trace ID) when a line is written: logrus's WithContext, zerolog's Event.Ctx.
	{"github.com/sirupsen/logrus", "", "WithContext"},
	{"github.com/sirupsen/logrus", "Logger", "WithContext"},
	{"github.com/sirupsen/logrus", "Entry", "WithContext"},
	{"github.com/rs/zerolog", "Event", "Ctx"},
	// OpenTelemetry: the span of a ctx.
	{"go.opentelemetry.io/otel/trace", "", "SpanFromContext"},
	{"go.opentelemetry.io/otel/trace", "", "SpanContextFromContext"},
	// OpenTelemetry metric instruments read the ctx's span and baggage for exemplars; a
	// measurement is recorded in memory, with no I/O that could outlive the request.
	{otelMetric, "Int64Counter", "Add"},
	{otelMetric, "Float64Counter", "Add"},
	{otelMetric, "Int64UpDownCounter", "Add"},
	{otelMetric, "Float64UpDownCounter", "Add"},
	{otelMetric, "Int64Histogram", "Record"},
	{otelMetric, "Float64Histogram", "Record"},
	{otelMetric, "Int64Gauge", "Record"},
	{otelMetric, "Float64Gauge", "Record"},
	// OpenTelemetry logs: a record is handed to the processors with the ctx's values.
	{"go.opentelemetry.io/otel/log", "Logger", "Emit"},
	{"go.opentelemetry.io/otel/log", "Logger", "Enabled"},
}

const otelMetric = "go.opentelemetry.io/otel/metric"

// dials lists the functions that use their ctx only to establish a connection that outlives
// the call: a connection cache or pool dials once, for whoever asks first, and a root context
// there ties the shared connection to no single request — the idiom, not a lost deadline.
var dials = []reader{
	{typesutil.GRPCPath, "", "DialContext"},
	{"net", "Dialer", "DialContext"},
	{"crypto/tls", "Dialer", "DialContext"},
}

// IsDial reports whether fn is one of the dials: its ctx bounds only the connection attempt.
func IsDial(fn *types.Func) bool { return matches(fn, dials) }

func matches(fn *types.Func, list []reader) bool {
	if fn == nil {
		return false
	}
	for _, r := range list {
		if r.recv == "" && typesutil.IsFunc(fn, r.pkg, r.name) ||
			r.recv != "" && typesutil.IsMethod(fn, r.pkg, r.recv, r.name) {
			return true
		}
	}
	return false
}

// measurements lists the package-level APIs that record a metric with their ctx's tags.
var measurements = []reader{
	// OpenCensus stats: a measurement is aggregated in memory with the ctx's tags.
	{"go.opencensus.io/stats", "", "Record"},
	{"go.opencensus.io/stats", "", "RecordWithTags"},
	{"go.opencensus.io/stats", "", "RecordWithOptions"},
}

// levelQueries ask a logger whether it would write a record at a level: the ctx lets a handler
// read values to decide; nothing is written, waited for or recorded with it.
var levelQueries = []reader{
	{"log/slog", "Logger", "Enabled"},
	{"log/slog", "Handler", "Enabled"},
	{"go.opentelemetry.io/otel/log", "Logger", "Enabled"},
}

// IsLevelQuery reports whether fn asks a logger whether a level is enabled.
func IsLevelQuery(fn *types.Func) bool { return matches(fn, levelQueries) }

// IsReader reports whether fn only reads from, logs with or measures with its ctx argument.
func IsReader(fn *types.Func) bool { return matches(fn, readers) || IsMeasurement(fn) }

// IsMeasurement reports whether fn records a metric with its ctx: the ctx gives the
// measurement its tags (exemplars, baggage) and nothing else.
func IsMeasurement(fn *types.Func) bool { return matches(fn, measurements) || recordsMeasurement(fn) }

// recordsMeasurement reports whether fn has the shape of an OpenTelemetry instrument's Add or
// Record — (ctx, number, ...metric.AddOption or ...metric.RecordOption) — whatever its
// receiver: the instrument itself, or an interface or type parameter a wrapper declares to
// accept every instrument of one kind (func Inc[T counter](ctx, m T, …) { m.Add(ctx, 1, …) }).
func recordsMeasurement(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	sig := fn.Signature()
	params := sig.Params()
	if !sig.Variadic() || params.Len() != 3 || sig.Results().Len() != 0 || !typesutil.IsContext(params.At(0).Type()) {
		return false
	}
	opts, ok := params.At(2).Type().(*types.Slice)
	return ok && (typesutil.IsNamed(opts.Elem(), otelMetric, "AddOption") || typesutil.IsNamed(opts.Elem(), otelMetric, "RecordOption"))
}

// asFuncs are the packages whose As answers as errors.As does, known by name: a dependency that
// imports no context package is not analysed, so no fact tells that github.com/pkg/errors' As
// calls errors.As; x/xerrors' checks assignability first in the same way.
var asFuncs = []string{"errors", "github.com/pkg/errors", "golang.org/x/xerrors"}

// IsErrorsAs reports whether fn is errors.As or one of the As functions that answer as it does.
func IsErrorsAs(fn *types.Func) bool {
	for _, pkg := range asFuncs {
		if typesutil.IsFunc(fn, pkg, "As") {
			return true
		}
	}
	return false
}
