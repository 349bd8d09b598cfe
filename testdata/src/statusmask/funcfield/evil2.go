package funcfield

import (
	"context"

	"example.com/gen/catalogpb"
	"example.com/keysrc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"statusmask/funcfield/keys"
)

type keyFunc func(context.Context) ([]byte, error)

// loader is generic: the stores into one instance's field are not the reads of another's.
type loader[T any] struct {
	load func(context.Context) (T, error)
}

func newLoader[T any](f func(context.Context) (T, error)) *loader[T] { return &loader[T]{load: f} }

type plain struct{ load keyFunc }

type remote struct{ load keyFunc }

// registry's map of sources leaves the package through an exported getter.
var registry = map[string]keyFunc{"env": keys.FromEnv}

// Registry returns the sources, for the wiring package to add its own.
func Registry() map[string]keyFunc { return registry }

// Evil2: function values whose every value the package stores looks quiet, but that may hold
// one that waits on the ctx: a method value of a dependency's interface (whose one
// implementation there never looks at its ctx) on the source the wiring package hands in, a generic
// field, a field a generated file also sets, a map the package hands out, a struct converted
// from another type.
type Evil2 struct {
	catalogpb.UnimplementedCatalogServer
	viaSource keyFunc
	generic   *loader[[]byte]
	wired     keyFunc
	src       plain
}

// NewEvil2 wires the server to the source it is given.
func NewEvil2(src keysrc.Source, f func(context.Context) ([]byte, error)) *Evil2 {
	e := &Evil2{viaSource: src.Keys, generic: &loader[[]byte]{load: keys.FromEnv}, wired: keys.FromEnv, src: plain{load: keys.FromEnv}}
	if f != nil {
		e.generic = newLoader(f)
		e.src = plain(remote{load: keys.Fetch})
	}
	return e
}

func (e *Evil2) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if _, err := e.viaSource(ctx); err != nil {
		return nil, status.Errorf(codes.Internal, "source: %v", err) // want `status\.Errorf gives code codes\.Internal to the error of the function in field viaSource`
	}
	if _, err := e.generic.load(ctx); err != nil {
		return nil, status.Errorf(codes.Internal, "generic: %v", err) // want `status\.Errorf gives code codes\.Internal to the error of the function in field load`
	}
	if _, err := e.wired(ctx); err != nil {
		return nil, status.Errorf(codes.Internal, "wired: %v", err) // want `status\.Errorf gives code codes\.Internal to the error of the function in field wired`
	}
	if _, err := registry["env"](ctx); err != nil {
		return nil, status.Errorf(codes.Internal, "registry: %v", err) // want `status\.Errorf gives code codes\.Internal to the error of a function value`
	}
	if _, err := e.src.load(ctx); err != nil {
		return nil, status.Errorf(codes.Internal, "converted: %v", err) // want `status\.Errorf gives code codes\.Internal to the error of the function in field load`
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}
