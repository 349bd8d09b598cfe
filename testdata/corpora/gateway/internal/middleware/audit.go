package middleware

import (
	"context"
	"log"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/status"

	"example.test/gateway/internal/audit"
	"example.test/gateway/internal/authn"
	"example.test/gateway/internal/tenants"
)

// Auditor writes an audit row for every call to a mutating method.
type Auditor struct {
	sink    *audit.Sink
	timeout time.Duration
	methods map[string]bool
}

// NewAuditor audits the given methods; timeout bounds each audit write.
func NewAuditor(sink *audit.Sink, timeout time.Duration, methods ...string) *Auditor {
	a := &Auditor{sink: sink, timeout: timeout, methods: map[string]bool{}}
	for _, m := range methods {
		a.methods[m] = true
	}
	return a
}

func (a *Auditor) entry(ctx context.Context, method string, start time.Time, err error) audit.Entry {
	p := authn.PrincipalFrom(ctx)
	return audit.Entry{
		At:        start.UTC(),
		Method:    method,
		Subject:   p.Subject,
		AccountID: p.AccountID,
		TenantID:  tenants.IDFrom(ctx),
		RequestID: RequestID(ctx),
		Code:      status.Code(err).String(),
		Duration:  time.Since(start),
		Peer:      peerAddr(ctx),
	}
}

// Unary audits one unary call after the handler returns.
func (a *Auditor) Unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	start := time.Now()
	resp, err := handler(ctx, req)
	if !a.methods[info.FullMethod] {
		return resp, err
	}
	e := a.entry(ctx, info.FullMethod, start, err)
	// The audit row has to land even when the caller has already hung up, so the
	// write keeps the request's values but not its cancellation, within a.timeout.
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), a.timeout) // OK
	go func() {
		defer cancel()
		if werr := a.sink.Write(actx, e); werr != nil { // OK
			log.Printf("audit: %s: %v", e.Method, werr)
		}
	}()
	return resp, err
}

// Stream audits a stream when it ends.
func (a *Auditor) Stream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	start := time.Now()
	err := handler(srv, ss)
	if !a.methods[info.FullMethod] {
		return err
	}
	e := a.entry(ss.Context(), info.FullMethod, start, err)
	actx := context.WithoutCancel(ss.Context())
	// ^BUG: detach
	if werr := a.sink.Write(actx, e); werr != nil {
		log.Printf("audit: %s: %v", e.Method, werr)
	}
	return err
}

// AdminAudit is the stricter trail for the operator-only methods: every call is
// recorded, including rejected ones, under the caller's request id.
func AdminAudit(sink *audit.Sink, admin func(method string) bool) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if !admin(info.FullMethod) {
			return handler(ctx, req)
		}
		start := time.Now()
		resp, err := handler(ctx, req)
		p := authn.PrincipalFrom(ctx)
		e := audit.Entry{At: start.UTC(), Method: info.FullMethod, Subject: p.Subject, AccountID: p.AccountID,
			RequestID: RequestID(ctx), Code: status.Code(err).String(), Duration: time.Since(start), Peer: peerAddr(ctx)}
		wctx := withRequestID(context.Background(), e.RequestID) // BUG: ctxbackground ALSO: detach
		go func() {
			if werr := sink.Write(wctx, e); werr != nil {
				log.Printf("admin audit: %s: %v", e.Method, werr)
			}
		}()
		return resp, err
	}
}
