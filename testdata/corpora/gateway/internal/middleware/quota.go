package middleware

import (
	"context"
	"log"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/gateway/internal/authn"
	"example.test/gateway/internal/platform/kv"
)

// Quota enforces the daily call quota of each account. Counters live in the
// cache sidecar so that every node sees the same count.
type Quota struct {
	base  context.Context
	kv    *kv.Client
	limit func(plan string) int64
	now   func() time.Time
}

// NewQuota returns a quota enforcer. base is the node's lifetime context.
func NewQuota(base context.Context, c *kv.Client, limit func(plan string) int64) *Quota {
	return &Quota{base: base, kv: c, limit: limit, now: time.Now}
}

func (q *Quota) key(p *authn.Principal) string {
	return "quota:" + p.AccountID + ":" + q.now().UTC().Format("20060102")
}

func (q *Quota) check(p *authn.Principal, n int64) error {
	if max := q.limit(p.Plan); max > 0 && n > max {
		return status.Errorf(codes.ResourceExhausted, "daily quota of %d calls exceeded", max)
	}
	return nil
}

// Unary counts one call against the caller's quota.
func (q *Quota) Unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	p := authn.PrincipalFrom(ctx)
	if p.AccountID == "" {
		return handler(ctx, req)
	}
	n, err := q.kv.IncrContext(ctx, q.key(p), 26*time.Hour) // OK
	if err != nil {
		log.Printf("quota: %s: %v (failing open)", p.AccountID, err)
		return handler(ctx, req)
	}
	if err := q.check(p, n); err != nil {
		return nil, err
	}
	return handler(ctx, req)
}

// Stream counts one stream open against the caller's quota.
func (q *Quota) Stream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	p := authn.PrincipalFrom(ss.Context())
	if p.AccountID == "" {
		return handler(srv, ss)
	}
	n, err := q.kv.IncrContext(q.base, q.key(p), 26*time.Hour) // BUG: ctxflow
	if err != nil {
		log.Printf("quota: %s: %v (failing open)", p.AccountID, err)
		return handler(srv, ss)
	}
	if err := q.check(p, n); err != nil {
		return err
	}
	return handler(srv, ss)
}
