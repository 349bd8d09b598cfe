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
