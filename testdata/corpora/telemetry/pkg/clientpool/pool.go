// Package clientpool keeps pooled gRPC client connections to ingesters and
// store-gateways.
package clientpool

import (
	"context"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"example.test/telemetry/gen/ingesterpb"
	"example.test/telemetry/pkg/util/log"
	"example.test/telemetry/pkg/util/metrics"
)

var (
	poolSize   = metrics.NewGauge("clientpool_connections")
	poolMisses = metrics.NewCounter("clientpool_misses_total")
)

// DefaultDeadline bounds every unary call that has no deadline of its own.
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

// Dial returns a connection to addr whose unary calls get a default deadline
// of d when the caller set none.
func Dial(addr string, d time.Duration, opts ...grpc.DialOption) (*grpc.ClientConn, error) {
	opts = append([]grpc.DialOption{
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithChainUnaryInterceptor(DefaultDeadline(d)),
	}, opts...)
	return grpc.NewClient(addr, opts...)
}

// Pool keeps one connection per ingester address.
type Pool struct {
	mu    sync.Mutex
	conns map[string]*grpc.ClientConn
	opts  []grpc.DialOption
}

// New returns an empty pool.
func New(opts ...grpc.DialOption) *Pool {
	if len(opts) == 0 {
		opts = []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}
	}
	return &Pool{conns: map[string]*grpc.ClientConn{}, opts: opts}
}

// GetClientFor returns the ingester client for addr, dialling it on first use.
// The connection is kept and shared by every later request.
func (p *Pool) GetClientFor(ctx context.Context, addr string) (ingesterpb.IngesterClient, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if cc, ok := p.conns[addr]; ok {
		return ingesterpb.NewIngesterClient(cc), nil
	}
	cc, err := grpc.DialContext(ctx, addr, p.opts...) //nolint:staticcheck // DialContext keeps the dial bounded by ctx.
	if err != nil {
		return nil, err
	}
	p.conns[addr] = cc
	poolSize.Inc()
	return ingesterpb.NewIngesterClient(cc), nil
}

// LookupContext returns the pooled connection for addr without dialling. A
// miss is logged with the caller's trace.
func (p *Pool) LookupContext(ctx context.Context, addr string) (*grpc.ClientConn, bool) {
	p.mu.Lock()
	cc, ok := p.conns[addr]
	p.mu.Unlock()
	if !ok {
		poolMisses.Add(ctx, 1, addr)
		log.Default.Debug(ctx, "client pool miss", "addr", addr)
	}
	return cc, ok
}

// Lookup is LookupContext without a trace.
func (p *Pool) Lookup(addr string) (*grpc.ClientConn, bool) {
	return p.LookupContext(context.Background(), addr) // OK: ctxbackground — convenience wrapper outside request scope; LookupContext only logs
}

// RemoveStale closes and forgets connections whose address is not in live.
func (p *Pool) RemoveStale(live map[string]bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for addr, cc := range p.conns {
		if !live[addr] {
			_ = cc.Close()
			delete(p.conns, addr)
			poolSize.Dec()
		}
	}
}

// Close closes every connection.
func (p *Pool) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	for addr, cc := range p.conns {
		_ = cc.Close()
		delete(p.conns, addr)
	}
	return nil
}
