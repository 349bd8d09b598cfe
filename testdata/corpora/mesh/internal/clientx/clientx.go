// Package clientx holds the mesh's gRPC client plumbing: dialling, a connection pool and a
// default per-call deadline.
package clientx

import (
	"context"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// DefaultDeadline returns a unary client interceptor that gives every call without a deadline
// of its own a deadline d from now.
func DefaultDeadline(d time.Duration) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if _, ok := ctx.Deadline(); !ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, d)
			defer cancel()
		}
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}

// Dial dials addr with the mesh's client options and a default deadline of d on unary calls.
func Dial(ctx context.Context, addr string, d time.Duration) (*grpc.ClientConn, error) {
	return grpc.DialContext(ctx, addr,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithChainUnaryInterceptor(DefaultDeadline(d)))
}

// Timeout returns ctx bounded by d, or ctx unbounded when d is zero: the caller decides.
func Timeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d > 0 {
		return context.WithTimeout(ctx, d)
	}
	return context.WithCancel(ctx)
}

// Pool keeps one connection per address, dialled on first use and shared by every caller.
type Pool struct {
	mu    sync.Mutex
	conns map[string]*grpc.ClientConn
	opts  []grpc.DialOption
}

// NewPool returns an empty pool.
func NewPool(opts ...grpc.DialOption) *Pool {
	if len(opts) == 0 {
		opts = []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}
	}
	return &Pool{conns: map[string]*grpc.ClientConn{}, opts: opts}
}

// Get returns the connection to addr, dialling it with ctx the first time.
func (p *Pool) Get(ctx context.Context, addr string) (*grpc.ClientConn, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if c, ok := p.conns[addr]; ok {
		return c, nil
	}
	c, err := grpc.DialContext(ctx, addr, p.opts...)
	if err != nil {
		return nil, err
	}
	p.conns[addr] = c
	return c, nil
}

// Close closes every connection.
func (p *Pool) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	for addr, c := range p.conns {
		_ = c.Close()
		delete(p.conns, addr)
	}
	return nil
}
