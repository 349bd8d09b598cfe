package detach

import (
	"go/types"

	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// reader is a function or method that takes a ctx only to read values out of it, or to log
// with them: handing it a detached ctx starts no work that could outlive anything.
type reader struct {
	pkg, recv, name string // recv is "" for a package-level function
}

// readers lists the ctx-taking APIs that are not work. Matching is by package path, receiver
// type and name.
var readers = []reader{
	{"context", "", "Cause"}, // the cancellation cause: a read
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
	// OpenTelemetry: the span of a ctx.
	{"go.opentelemetry.io/otel/trace", "", "SpanFromContext"},
	{"go.opentelemetry.io/otel/trace", "", "SpanContextFromContext"},
}

// isReader reports whether fn only reads from, or logs with, its ctx argument.
func isReader(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	for _, r := range readers {
		if r.recv == "" && typesutil.IsFunc(fn, r.pkg, r.name) ||
			r.recv != "" && typesutil.IsMethod(fn, r.pkg, r.recv, r.name) {
			return true
		}
	}
	return false
}
