package middleware

import (
	"context"
	"errors"
	"log"
	"sync"

	"google.golang.org/grpc"

	"example.test/gateway/internal/authn"
	"example.test/gateway/internal/platform/kv"
)

// memo is one request's view of the cache sidecar: every key is read at most
// once per request, however many handlers and helpers ask for it.
type memo struct {
	ctx  context.Context
	kv   *kv.Client
	mu   sync.Mutex
	vals map[string][]byte
}

type memoKey struct{}

// Cached returns the value under key through the request's memo, or straight
// from the sidecar when the call did not go through RequestCache.
func Cached(ctx context.Context, c *kv.Client, key string) ([]byte, error) {
	m, ok := ctx.Value(memoKey{}).(*memo)
	if !ok {
		return c.GetContext(ctx, key)
	}
	m.mu.Lock()
	v, hit := m.vals[key]
	m.mu.Unlock()
	if hit {
		return v, nil
	}
	v, err := m.kv.GetContext(m.ctx, key)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	m.vals[key] = v
	m.mu.Unlock()
	return v, nil
}

// RequestCache installs a per-request memo and prefetches the keys that the
// method is known to need, in one round trip.
func RequestCache(c *kv.Client, prefetch map[string][]string) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		m := &memo{ctx: ctx, kv: c, vals: map[string][]byte{}} // OK
		if keys := expand(prefetch[info.FullMethod], authn.PrincipalFrom(ctx)); len(keys) > 0 {
			vals, err := c.MGetContext(m.ctx, keys...) // OK
			if err != nil {
				log.Printf("reqcache: prefetch for %s: %v", info.FullMethod, err)
			}
			for k, v := range vals {
				m.vals[k] = v
			}
		}
		return handler(context.WithValue(ctx, memoKey{}, m), req)
	}
}

// expand fills the {account} placeholder of prefetch key templates.
func expand(templates []string, p *authn.Principal) []string {
	if p.AccountID == "" {
		return nil
	}
	out := make([]string, 0, len(templates))
	for _, t := range templates {
		out = append(out, replaceAll(t, "{account}", p.AccountID))
	}
	return out
}

// Preloader warms a shared, node-wide memo of account documents. Reads go
// through the node's lifetime context so that one caller hanging up does not
// leave a half-filled entry behind for everyone else.
type Preloader struct {
	base context.Context
	kv   *kv.Client

	mu     sync.RWMutex
	shared map[string][]byte
}

// NewPreloader returns a preloader bound to the node's lifetime ctx.
func NewPreloader(base context.Context, c *kv.Client) *Preloader {
	return &Preloader{base: base, kv: c, shared: map[string][]byte{}}
}

type preload struct {
	ctx     context.Context
	account string
	keys    []string
}

// Unary preloads the caller's account documents before the handler runs.
func (l *Preloader) Unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	p := authn.PrincipalFrom(ctx)
	if p.AccountID == "" {
		return handler(ctx, req)
	}
	pl := &preload{ctx: l.base, account: p.AccountID, keys: []string{"acct:" + p.AccountID, "plan:" + p.Plan}}
	l.mu.RLock()
	_, warm := l.shared[pl.keys[0]]
	l.mu.RUnlock()
	if !warm {
		vals, err := l.kv.MGetContext(pl.ctx, pl.keys...) // BUG: ctxflow
		if err != nil {
			log.Printf("preload %s: %v", pl.account, err)
		}
		l.mu.Lock()
		for k, v := range vals {
			l.shared[k] = v
		}
		l.mu.Unlock()
	}
	return handler(ctx, req)
}

// FeatureGate rejects calls to methods whose kill switch is set in the cache
// sidecar ("kill:<full method>" = "1").
func FeatureGate(c *kv.Client) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		raw, err := c.Get("kill:" + info.FullMethod) // BUG: ctxless
		switch {
		case err == nil && string(raw) == "1":
			return nil, errKilled(info.FullMethod)
		case err != nil && !errors.Is(err, kv.ErrMiss):
			log.Printf("feature gate %s: %v", info.FullMethod, err)
		}
		return handler(ctx, req)
	}
}
