package peer

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"example.test/storage/gen/storagepb"
	"example.test/storage/internal/obs"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Pool caches one connection per store address.
type Pool struct {
	mu    sync.Mutex
	conns map[string]*grpc.ClientConn
}

// NewPool returns an empty pool.
func NewPool() *Pool { return &Pool{conns: map[string]*grpc.ClientConn{}} }

// Conn returns the shared connection to addr, dialling it on first use.
func (p *Pool) Conn(addr string) (*grpc.ClientConn, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if cc, ok := p.conns[addr]; ok {
		return cc, nil
	}
	cc, err := Dial(context.Background(), addr)
	if err != nil {
		return nil, err
	}
	p.conns[addr] = cc
	return cc, nil
}

// Store returns a StoreService client on the shared connection to addr.
func (p *Pool) Store(addr string) (storagepb.StoreServiceClient, error) {
	cc, err := p.Conn(addr)
	if err != nil {
		return nil, err
	}
	return storagepb.NewStoreServiceClient(cc), nil
}

// Lookup returns the cached connection to addr, if any.
func (p *Pool) Lookup(addr string) (*grpc.ClientConn, bool) {
	return p.LookupContext(context.Background(), addr)
}

// LookupContext is Lookup, logging the miss with the caller's trace.
func (p *Pool) LookupContext(ctx context.Context, addr string) (*grpc.ClientConn, bool) {
	p.mu.Lock()
	cc, ok := p.conns[addr]
	p.mu.Unlock()
	if !ok {
		obs.Info(ctx, "peer: no cached connection", "addr", addr)
	}
	return cc, ok
}

// evict drops and closes the connection to addr.
func (p *Pool) evict(addr string) {
	p.mu.Lock()
	cc := p.conns[addr]
	delete(p.conns, addr)
	p.mu.Unlock()
	if cc != nil {
		cc.Close()
	}
}

// WithClient runs fn with a client for addr. When fn fails for a reason that
// is not the caller giving up (ctx), the connection is assumed broken and
// dropped from the pool.
func (p *Pool) WithClient(ctx context.Context, addr string, fn func(storagepb.StoreServiceClient) error) error {
	c, err := p.Store(addr)
	if err != nil {
		return err
	}
	err = fn(c)
	if err != nil && ctx.Err() == nil && status.Code(err) == codes.Unavailable {
		p.evict(addr)
	}
	return err
}

// Close closes every connection.
func (p *Pool) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	var errs []error
	for addr, cc := range p.conns {
		errs = append(errs, cc.Close())
		delete(p.conns, addr)
	}
	return errors.Join(errs...)
}

type addrEntry struct {
	addr string
	at   time.Time
}

// AddrCache resolves store ids to addresses through the meta service and
// remembers the answer for a while.
type AddrCache struct {
	mu      sync.RWMutex
	meta    storagepb.MetaServiceClient
	ttl     time.Duration
	timeout time.Duration
	entries map[uint64]addrEntry
}

// NewAddrCache returns a cache that asks meta.
func NewAddrCache(meta storagepb.MetaServiceClient, ttl time.Duration) *AddrCache {
	return &AddrCache{meta: meta, ttl: ttl, timeout: 3 * time.Second, entries: map[uint64]addrEntry{}}
}

// Resolve returns the address of the leader of region id.
func (c *AddrCache) Resolve(id uint64) (string, error) {
	c.mu.RLock()
	e, ok := c.entries[id]
	c.mu.RUnlock()
	if ok && time.Since(e.at) < c.ttl {
		return e.addr, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	resp, err := c.meta.GetRegion(ctx, &storagepb.GetRegionRequest{RegionId: id})
	if err != nil {
		return "", err
	}
	addr := storeAddr(resp.GetRegion().GetLeaderStore())
	c.mu.Lock()
	c.entries[id] = addrEntry{addr: addr, at: time.Now()}
	c.mu.Unlock()
	slog.Debug("peer: resolved", "region", id, "addr", addr)
	return addr, nil
}

func storeAddr(storeID uint64) string {
	return "store-" + itoa(storeID) + ":20160"
}

func itoa(n uint64) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
