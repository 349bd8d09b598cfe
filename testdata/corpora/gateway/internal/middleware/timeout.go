package middleware

import (
	"context"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// PerMethodTimeout bounds each unary call by the budget configured for its
// method. A caller's own, shorter deadline still wins.
func PerMethodTimeout(perMethod map[string]time.Duration, def time.Duration) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		d, ok := perMethod[info.FullMethod]
		if !ok {
			d = def
		}
		if d <= 0 {
			return handler(ctx, req)
		}
		ctx, cancel := context.WithTimeout(ctx, d) // OK
		defer cancel()
		return handler(ctx, req)
	}
}

// Deadlines is the hot-reloadable budget table fed by the config reloader. It
// guarantees every method its full budget, whatever the caller sent.
type Deadlines struct {
	mu        sync.RWMutex
	perMethod map[string]time.Duration
	def       time.Duration
}

// NewDeadlines returns a table with a default budget.
func NewDeadlines(def time.Duration) *Deadlines {
	return &Deadlines{perMethod: map[string]time.Duration{}, def: def}
}

// Update installs budgets in milliseconds, keyed by full method.
func (d *Deadlines) Update(ms map[string]int64) {
	m := make(map[string]time.Duration, len(ms))
	for k, v := range ms {
		m[k] = time.Duration(v) * time.Millisecond
	}
	d.mu.Lock()
	d.perMethod = m
	d.mu.Unlock()
}

func (d *Deadlines) budget(method string) time.Duration {
	d.mu.RLock()
	defer d.mu.RUnlock()
	if b, ok := d.perMethod[method]; ok {
		return b
	}
	return d.def
}

// Unary runs the handler with the method's budget.
func (d *Deadlines) Unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	tctx, cancel := context.WithTimeout(context.Background(), d.budget(info.FullMethod)) // BUG: ctxbackground
	defer cancel()
	if md, ok := metadata.FromIncomingContext(ctx); ok {
		tctx = metadata.NewIncomingContext(tctx, md)
	}
	tctx = withRequestID(tctx, RequestID(ctx))
	return handler(tctx, req)
}

// Stream bounds a stream by the method's budget.
func (d *Deadlines) Stream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	ctx, cancel := context.WithTimeout(ss.Context(), d.budget(info.FullMethod)) // OK
	defer cancel()
	return handler(srv, wrapServerStream(ss, ctx))
}
