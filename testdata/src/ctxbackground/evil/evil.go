// Package evil holds the shapes most likely to fool ctxbackground.
package evil

import (
	"context"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc"
)

func load(ctx context.Context, id string) (*catalogpb.Item, error) { return nil, ctx.Err() }

// lookalike has a GetItem of the handler's exact signature but implements no registered
// service: it is not a handler.
type lookalike struct{}

func (lookalike) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) { // want GetItem:"drops ctx"
	return load(context.Background(), req.GetId())
}

// GetItem is a plain function with a handler-like name and parameters.
func GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) { // want GetItem:"drops ctx"
	return load(context.Background(), req.GetId())
}

// hook is a function literal in a package-level var initialiser: not a request scope.
var hook = func() { _, _ = load(context.Background(), "hook") }

// Server is a real handler type.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	warm func()
}

// NewServer builds a closure in a constructor: the constructor does not run it, but a
// handler that calls it does run ctx-taking work with a root context.
func NewServer() *Server {
	s := &Server{}
	s.warm = func() { _, _ = load(context.Background(), "warm") }
	return s
}

// helper is another method of the server type, not part of the service.
func (s *Server) helper() { _, _ = load(context.Background(), "helper") } // want helper:"drops ctx"

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	s.warm()                         // want `the function in field warm, called in handler Server\.GetItem, works with context\.Background\(\); pass ctx down`
	if ctx == context.Background() { // a comparison drops nothing
		return nil, nil
	}
	if ctx == nil {
		ctx = context.Background() // a nil fallback replaces no caller's ctx
	}
	check := func(ctx int) {
		_, _ = load(context.Background(), "shadowed by a parameter") // want `context.Background\(\) in handler Server.GetItem drops the caller's deadline and cancellation; pass the request ctx`
	}
	check(1)
	//deadlinelint:ignore ctxbackground the cache fill must finish for every caller, bounded inside fill
	_, _ = load(context.Background(), "suppressed")
	_, _ = load(context.TODO(), "suppressed on the same line") //deadlinelint:ignore ctxbackground audited: fire-and-forget metrics
	//deadlinelint:ignore ctxbackground // want `//deadlinelint:ignore ctxbackground needs a reason`
	_, _ = load(context.TODO(), "a reasonless suppression does not suppress") // want `context.TODO\(\) in handler Server.GetItem`
	return load(ctx, req.GetId())
}

func (s *Server) ListItems(req *catalogpb.ListItemsRequest, _ grpc.ServerStreamingServer[catalogpb.Item]) error {
	_, err := load(context.Background(), "no name for the stream") // want `pass the stream's Context\(\)`
	//deadlinelint:ignore ctxbackground nothing to suppress here // want `unused //deadlinelint:ignore ctxbackground`
	//deadlinelint:ignore ctxbakground,ctxflow misspelt // want `//deadlinelint:ignore names "ctxbakground", which is no deadlinelint rule`
	return err
}

// wrapped embeds the service interface itself and overrides one method: a handler.
type wrapped struct {
	catalogpb.CatalogServer
}

func (w wrapped) GetItem(_ context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	return load(context.Background(), req.GetId()) // want `context.Background\(\) in handler wrapped.GetItem drops the caller's deadline and cancellation; pass the request ctx`
}

// almostInterceptor has the wrong info type: not an interceptor.
func almostInterceptor(ctx context.Context, req any, info string, handler grpc.UnaryHandler) (any, error) { // want almostInterceptor:"drops ctx"
	_, _ = load(context.Background(), info)
	return handler(ctx, req)
}

// session hands out the ctx of the call that opened it.
type session struct{ ctx context.Context }

func (s *session) Context() context.Context { return s.ctx }

// shelf holds items, and no ctx.
type shelf struct{ items map[string]*catalogpb.Item }

// Holders falls back to a root where a holder is nil.
type Holders struct {
	catalogpb.UnimplementedCatalogServer
	sess  *session
	shelf *shelf
}

func (h *Holders) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if h.sess == nil {
		_, _ = load(context.Background(), "no session: the fallback for a nil holder of a ctx replaces none")
	}
	if h.shelf == nil {
		_, _ = load(context.Background(), "no shelf") // want `context.Background\(\) in handler Holders.GetItem drops`
	}
	return load(ctx, req.GetId())
}
