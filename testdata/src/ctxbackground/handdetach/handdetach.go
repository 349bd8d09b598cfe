// Package handdetach serves with a ctx its helpers detach by hand: a documented helper that
// only reads values from the request's ctx and returns a fresh root carrying them is
// context.WithoutCancel written out, its doc comment the reason. An undocumented one, or a root
// made so in the handler itself, is still a root.
package handdetach

import (
	"context"

	"ctxbackground/handdetach/rpcctx"
	"example.com/gen/catalogpb"
)

type store interface {
	Get(ctx context.Context, id string) (*catalogpb.Item, error)
}

type reqKey struct{}

// Server serves items from a store.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	store store
}

// internal is the package's own converter: the request's id kept, its deadline dropped.
func internal(ctx context.Context) context.Context {
	return context.WithValue(context.Background(), reqKey{}, ctx.Value(reqKey{}))
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if _, err := s.store.Get(rpcctx.Convert(ctx), req.GetId()); err != nil {
		return nil, err
	}
	if _, err := s.store.Get(internal(ctx), req.GetId()); err != nil {
		return nil, err
	}
	_, _ = s.store.Get(rpcctx.Undocumented(ctx), req.GetId())                        // want `rpcctx\.Undocumented, called in handler Server\.GetItem, returns a ctx from context\.Background\(\), not the caller's; derive it from ctx`
	_, _ = s.store.Get(rpcctx.Unfinished(ctx), req.GetId())                          // want `rpcctx\.Unfinished, called in handler Server\.GetItem, returns a ctx from context\.Background\(\), not the caller's; derive it from ctx`
	_, _ = s.store.Get(rpcctx.Audited(ctx, s.audit), "a")                            // want `rpcctx\.Audited, called in handler Server\.GetItem, returns a ctx from context\.Background\(\), not the caller's; derive it from ctx`
	_, _ = s.store.Get(rpcctx.Passing(ctx, s.audit), "p")                            // want `rpcctx\.Passing, called in handler Server\.GetItem, returns a ctx from context\.Background\(\), not the caller's; derive it from ctx`
	inline := context.WithValue(context.Background(), reqKey{}, ctx.Value(reqKey{})) // want `context\.Background\(\) in handler Server\.GetItem drops the caller's deadline and cancellation; pass ctx`
	return s.store.Get(inline, req.GetId())
}

func (s *Server) audit(ctx context.Context) { _, _ = s.store.Get(ctx, "audit") }
