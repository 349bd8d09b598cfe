package interceptors

import (
	"context"
	"log/slog"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/status"

	"example.test/monolith/internal/platform/audit"
	"example.test/monolith/internal/platform/auth"
)

// Auditor writes one audit row per mutating call.
type Auditor struct {
	w       *audit.Writer
	log     *slog.Logger
	methods map[string]bool
}

// NewAuditor audits the given full method names.
func NewAuditor(w *audit.Writer, log *slog.Logger, methods ...string) *Auditor {
	m := make(map[string]bool, len(methods))
	for _, name := range methods {
		m[name] = true
	}
	return &Auditor{w: w, log: log, methods: m}
}

func actor(ctx context.Context) string {
	if c, ok := auth.ClaimsFrom(ctx); ok {
		return c.Subject
	}
	return "anonymous"
}

// Unary is the unary audit interceptor.
func (a *Auditor) Unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	if !a.methods[info.FullMethod] {
		return handler(ctx, req)
	}
	resp, err := handler(ctx, req) // OK
	entry := audit.Entry{Actor: actor(ctx), Action: info.FullMethod, Outcome: status.Code(err).String(), At: time.Now().UTC()}
	// Audit rows must be written even when the caller hangs up mid-request; Budget bounds the insert.
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), a.w.Budget()) // OK
	defer cancel()
	if werr := a.w.Write(actx, entry); werr != nil { // OK
		a.log.ErrorContext(ctx, "audit write failed", "method", info.FullMethod, "err", werr)
	}
	return resp, err
}

// Stream is the streaming audit interceptor.
func (a *Auditor) Stream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	if !a.methods[info.FullMethod] {
		return handler(srv, ss)
	}
	start := time.Now()
	err := handler(srv, ss)
	entry := audit.Entry{
		Actor: actor(ss.Context()), Action: info.FullMethod, Outcome: status.Code(err).String(), At: start.UTC(),
		Meta: map[string]string{"duration": time.Since(start).String()},
	}
	dctx := context.WithoutCancel(ss.Context())
	// ^BUG: detach
	go func() {
		if werr := a.w.Write(dctx, entry); werr != nil {
			a.log.ErrorContext(dctx, "audit write failed", "method", info.FullMethod, "err", werr)
		}
	}()
	return err
}
