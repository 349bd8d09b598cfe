package riskclient

import (
	"context"
	"fmt"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// Pool hands out one shared connection per target, dialled lazily on first
// use.
type Pool struct {
	mu    sync.Mutex
	conns map[string]*grpc.ClientConn
	opts  []grpc.DialOption
}

// NewPool returns an empty pool using opts for every dial.
func NewPool(opts ...grpc.DialOption) *Pool {
	if len(opts) == 0 {
		opts = []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}
	}
	return &Pool{conns: make(map[string]*grpc.ClientConn), opts: opts}
}

// Get returns a connection to target, creating it if needed. grpc.NewClient
// does no I/O, so this never blocks on the network.
func (p *Pool) Get(target string) (*grpc.ClientConn, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if cc, ok := p.conns[target]; ok {
		return cc, nil
	}
	cc, err := grpc.NewClient(target, p.opts...)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", target, err)
	}
	p.conns[target] = cc
	return cc, nil
}

// Close closes every pooled connection.
func (p *Pool) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	var first error
	for t, cc := range p.conns {
		if err := cc.Close(); err != nil && first == nil {
			first = err
		}
		delete(p.conns, t)
	}
	return first
}

// dialReady dials target and waits until the connection is ready. It is used
// for the legacy risk endpoint, which rejects the first RPC on a cold
// connection.
func dialReady(target string, opts ...grpc.DialOption) (*grpc.ClientConn, error) {
	opts = append(opts, grpc.WithBlock()) //nolint:staticcheck // legacy endpoint
	return grpc.DialContext(context.Background(), target, opts...) //nolint:staticcheck // BUG: ctxbackground — B14: a blocking dial with no bound, on the first request
}
