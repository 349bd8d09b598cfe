// Package conncache keeps one client connection per peer. Its ctx parameters are only asked,
// after the work, whether the caller's own deadline ended the call: a failure that is the
// caller's does not tear down a connection other requests share.
package conncache

import (
	"context"
	"database/sql"
	"errors"
	"sync"
	"time"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc"
)

var (
	mu    sync.Mutex
	conns = map[string]*grpc.ClientConn{}
)

func get(addr string) (*grpc.ClientConn, error) {
	mu.Lock()
	defer mu.Unlock()
	if cc := conns[addr]; cc != nil {
		return cc, nil
	}
	cc, err := Dial(context.Background(), addr)
	if err != nil {
		return nil, err
	}
	conns[addr] = cc
	return cc, nil
}

// Dial dials the peer: its ctx bounds the connection attempt only, and the connection is shared
// by every later request.
func Dial(ctx context.Context, addr string) (*grpc.ClientConn, error) {
	return grpc.DialContext(ctx, addr, grpc.WithBlock())
}

// Open dials, then checks the store with the same ctx: work.
func Open(ctx context.Context, addr string, db *sql.DB) (*grpc.ClientConn, error) {
	cc, err := Dial(ctx, addr)
	if err != nil {
		return nil, err
	}
	return cc, db.PingContext(ctx)
}

func drop(addr string, cc *grpc.ClientConn) {
	mu.Lock()
	defer mu.Unlock()
	if conns[addr] == cc {
		delete(conns, addr)
		cc.Close()
	}
}

// stale reports whether err says the connection is bad rather than the caller's ctx done: a
// predicate, no work.
func stale(ctx context.Context, err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return ctx != nil && ctx.Done() != nil && ctx.Err() == nil
	}
	return err != nil
}

// With runs fn on the peer's connection; ctx must be the one bounding fn's calls, and is only
// asked, after fn returns, whether it ended them.
func With(ctx context.Context, addr string, fn func(catalogpb.CatalogClient) error) error {
	cc, err := get(addr)
	if err != nil {
		return err
	}
	err = fn(catalogpb.NewCatalogClient(cc))
	if err != nil && stale(ctx, err) {
		drop(addr, cc)
	}
	return err
}

// WithPeer is With for a callback that picks its own ctx.
func WithPeer(addr string, fn func(catalogpb.CatalogClient) error) error {
	return With(context.Background(), addr, fn)
}

// Retry calls fn until it succeeds or the ctx is done: the predicate's answer stops the loop,
// so a root here runs on after the caller has gone.
func Retry(ctx context.Context, addr string, fn func(catalogpb.CatalogClient) error) error {
	for {
		err := With(ctx, addr, fn)
		if err == nil || !stale(ctx, err) {
			return err
		}
		time.Sleep(time.Second)
	}
}

// Poll asks the ctx itself on every turn: honouring cancellation, work.
func Poll(ctx context.Context, ready func() bool) {
	for !ready() {
		if ctx.Err() != nil {
			return
		}
		time.Sleep(time.Second)
	}
}

// Gate asks once, then works: the answer decides whether the work runs.
func Gate(ctx context.Context, work func()) {
	if ctx.Err() != nil {
		return
	}
	for i := 0; i < 3; i++ {
		work()
	}
}

// WithCatalog is With for a callback that picks its own ctx, wrapped in a literal of its own.
func WithCatalog(addr string, fn func(catalogpb.CatalogClient) error) error {
	return With(context.Background(), addr, func(c catalogpb.CatalogClient) error {
		return fn(c)
	})
}

// client dials the peer with the ctx it is given on first use and stores the connection in
// the cache itself: what it returns, a client over the connection, its callers may drop.
func client(ctx context.Context, addr string) (catalogpb.CatalogClient, error) {
	mu.Lock()
	defer mu.Unlock()
	if cc := conns[addr]; cc != nil {
		return catalogpb.NewCatalogClient(cc), nil
	}
	cc, err := grpc.DialContext(ctx, addr)
	if err != nil {
		return nil, err
	}
	conns[addr] = cc
	return catalogpb.NewCatalogClient(cc), nil
}

// WithDialed runs fn with a client over the peer's cached connection, which ctx dials on first
// use; ctx is asked afterwards whether it ended fn's calls. A root given here only dials a
// connection the cache keeps.
func WithDialed(ctx context.Context, addr string, fn func(catalogpb.CatalogClient) error) error {
	c, err := client(ctx, addr)
	if err != nil {
		return err
	}
	err = fn(c)
	if err != nil && ctx.Err() == nil {
		mu.Lock()
		cc := conns[addr]
		mu.Unlock()
		drop(addr, cc)
	}
	return err
}

// WithProbe dials through Dial, which returns the connection without keeping it, and closes it
// after fn: the dial is work done for this caller alone.
func WithProbe(ctx context.Context, addr string, fn func(catalogpb.CatalogClient) error) error {
	cc, err := Dial(ctx, addr)
	if err != nil {
		return err
	}
	defer cc.Close()
	return fn(catalogpb.NewCatalogClient(cc))
}

// WithFresh dials through client, then pings the peer with the same ctx: the ping is work.
func WithFresh(ctx context.Context, addr string) error {
	c, err := client(ctx, addr)
	if err != nil {
		return err
	}
	_, err = c.GetItem(ctx, &catalogpb.GetItemRequest{Id: "ping"})
	return err
}

// Peer is a client of one peer, over a connection of its own.
type Peer struct {
	cc *grpc.ClientConn
	catalogpb.CatalogClient
}

// NewPeer dials a connection for the Peer it returns: kept in the new object, which its caller
// owns and closes, not in the cache.
func NewPeer(ctx context.Context, addr string) (*Peer, error) {
	cc, err := grpc.DialContext(ctx, addr, grpc.WithBlock())
	if err != nil {
		return nil, err
	}
	return &Peer{cc: cc, CatalogClient: catalogpb.NewCatalogClient(cc)}, nil
}

// Close closes the peer's connection.
func (p *Peer) Close() error { return p.cc.Close() }

// Tracked dials into the cache for fn and takes the connection out and closes it after: the
// dial is work for this caller alone.
func Tracked(ctx context.Context, addr string, fn func(catalogpb.CatalogClient) error) error {
	cc, err := grpc.DialContext(ctx, addr, grpc.WithBlock())
	if err != nil {
		return err
	}
	mu.Lock()
	conns[addr] = cc
	mu.Unlock()
	defer func() {
		mu.Lock()
		delete(conns, addr)
		mu.Unlock()
		cc.Close()
	}()
	return fn(catalogpb.NewCatalogClient(cc))
}

// Connect dials into the cache until the peer answers, without ever asking the ctx: a root
// here waits for ever.
func Connect(ctx context.Context, addr string) {
	for {
		cc, err := grpc.DialContext(ctx, addr, grpc.WithBlock())
		if err == nil {
			mu.Lock()
			conns[addr] = cc
			mu.Unlock()
			return
		}
		time.Sleep(time.Second)
	}
}

// Borrowed dials into the cache for fn and closes the connection when fn returns: work for
// this caller alone.
func Borrowed(ctx context.Context, addr string, fn func(catalogpb.CatalogClient) error) error {
	cc, err := grpc.DialContext(ctx, addr, grpc.WithBlock())
	if err != nil {
		return err
	}
	mu.Lock()
	conns[addr] = cc
	mu.Unlock()
	defer cc.Close()
	return fn(catalogpb.NewCatalogClient(cc))
}

// DialInto dials into the map its caller gives it: whose map that is, and how long it lives,
// only the caller knows.
func DialInto(ctx context.Context, into map[string]*grpc.ClientConn, addr string) error {
	cc, err := grpc.DialContext(ctx, addr)
	if err != nil {
		return err
	}
	into[addr] = cc
	return nil
}
