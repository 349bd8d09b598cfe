// Package grpcx holds the cluster's gRPC plumbing: dial helpers, a
// connection cache shared by every request, default client deadlines and the
// mapping from internal errors to status codes.
package grpcx

import (
	"context"
	"errors"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"example.test/vectordb/internal/log"
)

// Dial dials addr. The ctx only bounds the dial; the connection is shared by
// every later request.
func Dial(ctx context.Context, addr string, opts ...grpc.DialOption) (*grpc.ClientConn, error) {
	opts = append([]grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}, opts...)
	return grpc.DialContext(ctx, addr, opts...)
}

// DefaultDeadline returns a client interceptor that gives every unary call
// without a deadline the deadline d.
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

// DialWithDefaultDeadline dials addr with the DefaultDeadline interceptor:
// every unary call made on the connection has a deadline.
func DialWithDefaultDeadline(ctx context.Context, addr string, d time.Duration) (*grpc.ClientConn, error) {
	return Dial(ctx, addr, grpc.WithChainUnaryInterceptor(DefaultDeadline(d)))
}

// OptionalTimeout returns a context with timeout d, or none when d is zero:
// the caller (a flag, a request field) decides.
func OptionalTimeout(d time.Duration) (context.Context, context.CancelFunc) {
	if d > 0 {
		return context.WithTimeout(context.Background(), d)
	}
	return context.WithCancel(context.Background())
}

// ConnCache keeps one connection per address, shared by every request.
type ConnCache struct {
	mu    sync.Mutex
	conns map[string]*grpc.ClientConn
	dialT time.Duration
}

// NewConnCache returns an empty cache.
func NewConnCache(dialTimeout time.Duration) *ConnCache {
	return &ConnCache{conns: map[string]*grpc.ClientConn{}, dialT: dialTimeout}
}

// Get returns the cached connection to addr, dialing it on first use.
func (c *ConnCache) Get(addr string) (*grpc.ClientConn, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cc, ok := c.conns[addr]; ok {
		return cc, nil
	}
	cc, err := Dial(context.Background(), addr) // OK: ctxbackground — a root given only to a dial; the connection is kept for every later request
	if err != nil {
		return nil, err
	}
	c.conns[addr] = cc
	return cc, nil
}

// WithClient runs fn on the connection to addr. ctx is only asked, once fn
// returned, whether the failure was the caller's own: if not, the connection
// is dropped so that the next request dials again.
func (c *ConnCache) WithClient(ctx context.Context, addr string, fn func(*grpc.ClientConn) error) error {
	cc, err := c.Get(addr)
	if err != nil {
		return err
	}
	err = fn(cc)
	if err != nil && ctx.Err() == nil && IsUnavailable(err) {
		c.drop(addr)
	}
	return err
}

func (c *ConnCache) drop(addr string) {
	c.mu.Lock()
	cc := c.conns[addr]
	delete(c.conns, addr)
	c.mu.Unlock()
	if cc != nil {
		_ = cc.Close()
	}
}

// Close closes every cached connection.
func (c *ConnCache) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for addr, cc := range c.conns {
		if err := cc.Close(); err != nil {
			log.L().Warn("close conn", log.String("addr", addr), log.Err(err))
		}
		delete(c.conns, addr)
	}
}

var errClosed = errors.New("connection cache closed")
