// Package clients holds outbound gRPC plumbing shared by all requests.
package clients

import (
	"context"
	"errors"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/connectivity"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"example.test/shop/proto/shoppb"
)

// ConnCache shares one ClientConn per target address. Connections belong to
// the process, not to whichever request happened to create them.
type ConnCache struct {
	mu     sync.RWMutex
	conns  map[string]*grpc.ClientConn
	opts   []grpc.DialOption
	warmUp time.Duration
}

func NewConnCache(opts ...grpc.DialOption) *ConnCache {
	if len(opts) == 0 {
		opts = []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}
	}
	return &ConnCache{conns: map[string]*grpc.ClientConn{}, opts: opts, warmUp: 3 * time.Second}
}

// Get returns the cached connection for addr, creating it on first use.
func (c *ConnCache) Get(addr string) (*grpc.ClientConn, error) {
	c.mu.RLock()
	cc, ok := c.conns[addr]
	c.mu.RUnlock()
	if ok {
		return cc, nil
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	if cc, ok := c.conns[addr]; ok {
		return cc, nil
	}
	cc, err := grpc.NewClient(addr, c.opts...)
	if err != nil {
		return nil, err
	}
	c.conns[addr] = cc
	go c.connect(cc)
	return cc, nil
}

// connect eagerly establishes the transport so the first RPC does not pay for
// the handshake. It is bounded on its own: the conn is shared, so no single
// caller's cancellation should abort it.
func (c *ConnCache) connect(cc *grpc.ClientConn) {
	ctx, cancel := context.WithTimeout(context.Background(), c.warmUp)
	defer cancel()
	cc.Connect()
	for {
		s := cc.GetState()
		if s == connectivity.Ready || s == connectivity.Shutdown {
			return
		}
		if !cc.WaitForStateChange(ctx, s) {
			return
		}
	}
}

func (c *ConnCache) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var errs []error
	for addr, cc := range c.conns {
		errs = append(errs, cc.Close())
		delete(c.conns, addr)
	}
	return errors.Join(errs...)
}

// FollowOrders mirrors another region's order events for as long as ctx (the
// process lifetime) lives. A tail stream is long-lived by design, so it has no
// deadline; it reconnects with capped backoff.
func FollowOrders(ctx context.Context, cc *grpc.ClientConn, customer string, fn func(*shoppb.OrderEvent)) error {
	c := shoppb.NewOrdersClient(cc)
	backoff := 100 * time.Millisecond
	for {
		stream, err := c.TailOrders(ctx, &shoppb.WatchOrdersRequest{CustomerId: customer})
		if err == nil {
			backoff = 100 * time.Millisecond
			for {
				ev, rerr := stream.Recv()
				if rerr != nil {
					break
				}
				fn(ev)
			}
		}
		t := time.NewTimer(backoff)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		backoff = min(backoff*2, 10*time.Second)
	}
}

// Probe issues a cheap RPC to check that target answers. The caller decides
// how long that may take.
func Probe(ctx context.Context, cc *grpc.ClientConn) error {
	_, err := shoppb.NewCatalogClient(cc).GetProduct(ctx, &shoppb.GetProductRequest{Sku: "__probe__"})
	if code := status.Code(err); code == codes.OK || code == codes.NotFound {
		return nil
	}
	return err
}
