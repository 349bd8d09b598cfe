// Package handler is the gRPC service whose calls reach helpers that drop the request ctx.
package handler

import (
	"context"
	"net"
	"net/http"

	"ctxbackground/transitive/pricing"
	"ctxbackground/transitive/repo"
	"ctxbackground/transitive/service"
	"example.com/gen/catalogpb"
)

type Server struct {
	catalogpb.UnimplementedCatalogServer
	svc    *service.Service
	store  repo.Store
	client *http.Client
	quote  func(*http.Client, string) (*http.Response, error)
}

// NewServer wires a func field.
func NewServer(svc *service.Service) *Server {
	return &Server{svc: svc, quote: pricing.Quote}
}

// NewServerWith takes the func from its caller, a test say: the field may hold that too, but
// pricing.Quote stays one of the functions it may hold.
func NewServerWith(svc *service.Service, quote func(*http.Client, string) (*http.Response, error)) *Server {
	return &Server{svc: svc, quote: quote}
}

func fresh() context.Context { return context.Background() }

// Close implements io.Closer with a root context of its own.
func (s *Server) Close() error { // want Close:"drops ctx"
	_, err := s.svc.Get(context.Background(), "flush")
	return err
}

func (s *Server) audit(id string) { // want audit:"drops ctx: pricing.Quote: context.Background\\(\\) at .*/pricing.go:11"
	_, _ = pricing.Quote(s.client, id)
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	name, err := s.svc.Get(ctx, req.GetId()) // through an interface not every implementation of which drops: silent
	if err != nil {
		return nil, err
	}
	_, _ = s.svc.Direct(ctx, req.GetId()) // want `service\.Service\.Direct, called in handler Server\.GetItem, works with context\.Background\(\); pass ctx down`
	_, _ = pricing.Quote(s.client, name)  // want `pricing\.Quote, called in handler Server\.GetItem, works with context\.Background\(\); pass ctx down`
	s.audit(name)                         // the same root as pricing.Quote: once
	_, _ = pricing.QuoteCtx(ctx, s.client, name)
	_, _ = s.store.Load(ctx, name) // the store interface is declared in repo: same root, already reported
	_, _ = net.LookupHost(name)    // the standard library is not followed by default
	_ = s.svc.Safe(ctx)
	if resp, err := s.client.Get("http://inventory/" + name); err == nil {
		_ = resp.Body.Close() // io.Closer is not the user's interface: Server.Close is not a candidate
	}
	_, _ = s.store.Load(fresh(), name) // want `handler\.fresh, called in handler Server\.GetItem, returns a ctx from context\.Background\(\), not the caller's; derive it from ctx`
	return &catalogpb.Item{Id: name}, nil
}

func (s *Server) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	_, err := s.quote(s.client, req.GetCategory()) // pricing.Quote's root again: a related position of GetItem's finding
	return err
}
