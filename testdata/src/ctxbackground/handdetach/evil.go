package handdetach

import (
	"context"

	"example.com/gen/catalogpb"
)

// Evil's helpers look like hand-written detaches but are not: each still gives its callers a
// root.
type Evil struct {
	catalogpb.UnimplementedCatalogServer
	store store
	last  context.Context
}

// either returns the request's ctx on one path: it does more than read from it.
func either(ctx context.Context, keep bool) context.Context {
	if keep {
		return ctx
	}
	return context.WithValue(context.Background(), reqKey{}, ctx.Value(reqKey{}))
}

// kept also keeps the fresh root in a field.
func (e *Evil) kept(ctx context.Context) context.Context {
	out := context.WithValue(context.Background(), reqKey{}, ctx.Value(reqKey{}))
	e.last = out
	return out
}

// cancellable gives the fresh root a cancel of its own: no longer values only.
func cancellable(ctx context.Context) context.Context {
	out, cancel := context.WithCancel(context.WithValue(context.Background(), reqKey{}, ctx.Value(reqKey{})))
	_ = cancel
	return out
}

func (e *Evil) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	_, _ = e.store.Get(either(ctx, false), "e") // want `handdetach\.either, called in handler Evil\.GetItem, returns a ctx from context\.Background\(\), not the caller's; derive it from ctx`
	_, _ = e.store.Get(e.kept(ctx), "k")        // want `handdetach\.Evil\.kept, called in handler Evil\.GetItem, returns a ctx from context\.Background\(\), not the caller's; derive it from ctx`
	return e.store.Get(cancellable(ctx), "c")   // want `handdetach\.cancellable, called in handler Evil\.GetItem, returns a ctx from context\.Background\(\), not the caller's; derive it from ctx`
}
