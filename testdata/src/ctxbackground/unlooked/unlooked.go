// Package unlooked holds handlers that hand a root to functions that never look at their ctx
// (a getter returning a field) — nothing is bounded or carried, so nothing is lost — beside
// ones whose callees work with it, through a static call, a method value and an interface.
package unlooked

import (
	"context"
	"fmt"

	"example.com/gen/catalogpb"

	"ctxbackground/unlooked/peers"
)

// locator has no implementation in sight: a call of it may do anything with its ctx.
type locator interface {
	Locate(ctx context.Context) string
}

type Server struct {
	catalogpb.UnimplementedCatalogServer
	peers  *peers.Table
	finder locator
	addr   string
}

// master never refers to its ctx.
func (s *Server) master(_ context.Context) string { return s.addr }

// named names its ctx and still never refers to it.
func named(ctx context.Context, id string) string { return "item " + id }

// passes hands its ctx on to a function that never looks at it.
func (s *Server) passes(ctx context.Context) string { return s.master(ctx) }

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	a := s.master(context.Background())                                                  // a getter that never looks at its ctx: silent
	b := named(context.TODO(), req.GetId())                                              // silent
	c := s.peers.Leader(context.Background())                                            // another package's getter, known by its fact: silent
	d := s.passes(context.TODO())                                                        // handed on only to one that never looks: silent
	fmt.Println(a, b, c, d, s.master(context.WithValue(context.Background(), key{}, 1))) // derived, never looked at: silent
	if _, err := s.peers.Resolve(context.Background(), req.GetId()); err != nil {        // want `context.Background\(\) in handler Server.GetItem drops the caller's deadline`
		return nil, err
	}
	_ = s.finder.Locate(context.TODO()) // want `context.TODO\(\) in handler Server.GetItem drops the caller's deadline`
	get := s.master
	_ = get(context.Background()) // want `context.Background\(\) in handler Server.GetItem drops the caller's deadline`
	return &catalogpb.Item{}, nil
}

type key struct{}

// fixed is the one locator a handler holds in a local: every value its receiver may hold is in
// sight, and its Locate never looks at its ctx.
type fixed struct{ addr string }

func (f fixed) Locate(_ context.Context) string { return f.addr }

// dialing's Locate works with its ctx.
type dialing struct{ peers *peers.Table }

func (d dialing) Locate(ctx context.Context) string {
	addr, _ := d.peers.Resolve(ctx, "master")
	return addr
}

func (s *Server) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	var l locator = fixed{addr: s.addr}
	_ = l.Locate(context.Background()) // the one value the call may reach never looks at its ctx: silent
	if req.GetCategory() != "" {
		l = dialing{peers: s.peers}
	}
	_ = l.Locate(context.TODO()) // want `context.TODO\(\) in handler Server.ListItems drops the caller's deadline`
	return nil
}
