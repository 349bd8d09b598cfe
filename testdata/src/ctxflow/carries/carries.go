// Package carries holds ctxflow's cases of callees that only carry a lifetime ctx's values:
// nothing they do waits on the ctx, so nothing outlives the request through them.
package carries

import (
	"context"
	"log/slog"
	"net"

	"ctxflow/carries/health"

	"example.com/gen/catalogpb"
)

// logged refers to its ctx only to log with it.
func logged(ctx context.Context, id string) {
	slog.InfoContext(ctx, "item", "id", id)
}

// traced reads a value from its ctx and hands it to a logger.
func traced(ctx context.Context, id string) string {
	v, _ := ctx.Value(traceKey{}).(string)
	logged(ctx, id+v)
	return v
}

type traceKey struct{}

// dials does work with its ctx besides logging.
func dials(ctx context.Context, addr string) error {
	slog.InfoContext(ctx, "dial", "addr", addr)
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", addr)
	if err == nil {
		c.Close()
	}
	return err
}

// stub never refers to its ctx: what a call of it means to do with one is not known.
func stub(ctx context.Context, id string) error { return nil }

// Auditor records who asked.
type Auditor interface {
	Audit(ctx context.Context, who string)
}

// logAuditor writes the audit line with the caller's trace.
type logAuditor struct{}

func (*logAuditor) Audit(ctx context.Context, who string) { slog.InfoContext(ctx, "audit", "who", who) }

// Store loads items.
type Store interface {
	Load(ctx context.Context, id string) error
}

// memStore only logs; netStore dials: a call through Store may do work.
type memStore struct{}

func (memStore) Load(ctx context.Context, id string) error { logged(ctx, id); return nil }

type netStore struct{ addr string }

func (s netStore) Load(ctx context.Context, id string) error { return dials(ctx, s.addr) }

// Remote is implemented by no type in sight: a call of it may do anything.
type Remote interface {
	Fetch(ctx context.Context, id string) error
}

// Server keeps its lifetime ctx in a field.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	base   context.Context
	audit  Auditor
	store  Store
	remote Remote
	node   health.Component
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	logged(s.base, req.GetId())                        // only logs
	_ = traced(s.base, req.GetId())                    // only reads a value and logs
	s.audit.Audit(s.base, req.GetId())                 // only ever set to a logAuditor, which only logs
	_ = s.node.State(s.base)                           // the implementation in another package only logs, by its fact
	if err := dials(s.base, req.GetId()); err != nil { // want `carries\.dials in handler Server\.GetItem uses receiver field base, a ctx that outlives the request; pass ctx`
		return nil, err
	}
	if err := stub(s.base, req.GetId()); err != nil { // want `carries\.stub in handler Server\.GetItem uses receiver field base`
		return nil, err
	}
	if err := s.store.Load(s.base, req.GetId()); err != nil { // want `Store\.Load in handler Server\.GetItem uses receiver field base`
		return nil, err
	}
	if err := s.remote.Fetch(s.base, req.GetId()); err != nil { // want `Remote\.Fetch in handler Server\.GetItem uses receiver field base`
		return nil, err
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}

// NewServer wires the production types.
func NewServer(ctx context.Context, addr string) *Server {
	return &Server{base: ctx, audit: &logAuditor{}, store: netStore{addr}, node: &health.Node{}}
}

var _ Store = memStore{}
