package server

import (
	"context"
	"time"

	"example.test/blind/internal/audit"
	"google.golang.org/grpc"
)

// Authz checks permissions; it owns a background refresher.
type Authz struct {
	ctx   context.Context
	w     audit.Writer
	perms map[string]bool
}

// NewAuthz returns an Authz whose refresher runs until ctx ends.
func NewAuthz(ctx context.Context, w audit.Writer) *Authz {
	return &Authz{ctx: ctx, w: w, perms: map[string]bool{}}
}

// Unary is the interceptor.
func (a *Authz) Unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	if !a.perms[info.FullMethod] {
		_ = a.w.Write(a.ctx, audit.Entry{Action: "denied " + info.FullMethod}) // BUG: ctxflow
	}
	// the decision is recorded even if the caller cancels; recordDecision bounds it
	a.recordDecision(context.WithoutCancel(ctx), info.FullMethod) // OK: bounded in a same-package helper, explained
	return handler(ctx, req)
}

func (a *Authz) recordDecision(ctx context.Context, method string) {
	ctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel()
	_ = a.w.Write(ctx, audit.Entry{Action: "allowed " + method})
}
