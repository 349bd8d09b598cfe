// Package peer is a stub of google.golang.org/grpc/peer for tests.
package peer

import (
	"context"
	"net"
)

// Peer is the other end of an RPC.
type Peer struct {
	Addr net.Addr
}

type peerKey struct{}

// NewContext returns ctx carrying p.
func NewContext(ctx context.Context, p *Peer) context.Context {
	return context.WithValue(ctx, peerKey{}, p)
}

// FromContext returns the peer ctx carries.
func FromContext(ctx context.Context) (*Peer, bool) {
	p, ok := ctx.Value(peerKey{}).(*Peer)
	return p, ok
}
