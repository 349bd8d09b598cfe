// Package containers holds handlers that take their ctx out of something the server keeps: a
// lifecycle manager behind an interface, a table of tenant contexts filled at start-up. Those
// outlive the request. Beside each, the same shape holding the request's own ctx.
package containers

import (
	"context"
	"net"

	"ctxflow/lifecycle"
	"example.com/gen/catalogpb"
)

func load(ctx context.Context, id string) error {
	var d net.Dialer
	_, err := d.DialContext(ctx, "tcp", id)
	return err
}

// lifetime is what the server needs of its lifecycle manager.
type lifetime interface {
	Context() context.Context
}

// Server keeps a lifecycle manager behind an interface, and a ctx per tenant.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	life    lifetime
	tenants map[string]context.Context
	shards  []context.Context
}

// New wires the server at start-up.
func New(parent context.Context, m *lifecycle.Manager) *Server {
	s := &Server{life: m, tenants: make(map[string]context.Context)}
	s.tenants["default"] = parent
	s.shards = append(s.shards, parent)
	return s
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	_ = load(s.life.Context(), req.GetId()) // want `containers.load in handler Server.GetItem uses receiver field`
	_ = load(s.tenants[req.GetId()], "t")   // want `uses receiver field tenants`
	_ = load(s.shards[0], "s")              // want `uses receiver field shards`
	var l lifetime = lifecycle.NewRequest(ctx)
	_ = load(l.Context(), "request") // a per-request state: the request's ctx
	return nil, nil
}

// Registry keeps the ctx of every call in flight, keyed by id: request contexts.
type Registry struct {
	catalogpb.UnimplementedCatalogServer
	inflight map[string]context.Context
}

func (r *Registry) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	r.inflight[req.GetId()] = ctx
	_ = load(r.inflight[req.GetId()], "inflight") // holds request contexts: not long-lived
	return nil, nil
}

// tenant is what the server keeps per tenant, built at start-up.
type tenant struct {
	ctx  context.Context
	name string
}

// Tenants keeps a struct per tenant, with its ctx.
type Tenants struct {
	catalogpb.UnimplementedCatalogServer
	byName map[string]tenant
	calls  map[string]tenant
}

// NewTenants fills the table at start-up.
func NewTenants(parent context.Context) *Tenants {
	t := &Tenants{byName: map[string]tenant{}, calls: map[string]tenant{}}
	t.byName["default"] = tenant{ctx: parent, name: "default"}
	return t
}

func (s *Tenants) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if t, ok := s.byName[req.GetId()]; ok {
		_ = load(t.ctx, t.name) // want `uses receiver field ctx`
	}
	s.calls[req.GetId()] = tenant{ctx: ctx, name: req.GetId()}
	if c, ok := s.calls[req.GetId()]; ok {
		_ = load(c.ctx, c.name) // a handler fills this table: it holds requests' contexts
	}
	return nil, nil
}

// proc is a lifetime the server keeps by value: its method has a value receiver.
type proc struct{ ctx context.Context }

func (p proc) Context() context.Context { return p.ctx }

// ByValue keeps its lifetime by value, behind the interface.
type ByValue struct {
	catalogpb.UnimplementedCatalogServer
	life lifetime
}

// NewByValue wires it at start-up with the process ctx.
func NewByValue(parent context.Context) *ByValue { return &ByValue{life: proc{ctx: parent}} }

func (s *ByValue) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	_ = load(s.life.Context(), req.GetId()) // want `containers.load in handler ByValue.GetItem uses receiver field`
	var l lifetime = proc{ctx: ctx}
	_ = load(l.Context(), "request") // a per-request value: the request's ctx
	return nil, nil
}
