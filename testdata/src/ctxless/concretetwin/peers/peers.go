// Package peers keeps connections to other nodes, with ctx-less methods beside their Context
// twins: one whose twin only logs with its ctx, one whose twin dials with it.
package peers

import (
	"context"
	"log/slog"
	"net"
)

// Pool keeps one connection per address.
type Pool struct {
	conns map[string]net.Conn
	d     net.Dialer
}

// Lookup returns the kept connection to addr.
func (p *Pool) Lookup(addr string) (net.Conn, bool) {
	return p.LookupContext(context.Background(), addr)
}

// LookupContext is Lookup, logging a miss with the caller's trace.
func (p *Pool) LookupContext(ctx context.Context, addr string) (net.Conn, bool) {
	c, ok := p.conns[addr]
	if !ok {
		slog.DebugContext(ctx, "no kept connection", "addr", addr)
	}
	return c, ok
}

// Open returns the kept connection to addr, dialing it when there is none.
func (p *Pool) Open(addr string) (net.Conn, error) {
	return p.OpenContext(context.Background(), addr)
}

// OpenContext is Open, dialing with the caller's ctx.
func (p *Pool) OpenContext(ctx context.Context, addr string) (net.Conn, error) {
	if c, ok := p.conns[addr]; ok {
		return c, nil
	}
	return p.d.DialContext(ctx, "tcp", addr)
}

// Store is a key-value client whose ctx-taking variants end in Ctx, as go-zero's stores do.
type Store struct {
	conn net.Conn
	d    net.Dialer
}

// Get returns the value of key.
func (s *Store) Get(key string) (string, error) { return s.GetCtx(context.Background(), key) }

// GetCtx is Get, dialing the store with the caller's ctx.
func (s *Store) GetCtx(ctx context.Context, key string) (string, error) {
	c, err := s.d.DialContext(ctx, "tcp", "store:6379")
	if err != nil {
		return "", err
	}
	defer c.Close()
	return key, nil
}

// Len returns the number of keys kept.
func (s *Store) Len() int { return s.LenCtx(context.Background()) }

// LenCtx is Len, logging with the caller's trace.
func (s *Store) LenCtx(ctx context.Context) int {
	slog.DebugContext(ctx, "len")
	return 0
}

// Ctx is no variant of anything: a method of that very name.
func (s *Store) Ctx(ctx context.Context) int { return 0 }
