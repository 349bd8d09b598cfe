package funcfield

import (
	"context"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"statusmask/funcfield/keys"
)

// Evil: function values that look like a quiet key source but may do work with the ctx.
type Evil struct {
	catalogpb.UnimplementedCatalogServer
	either func(context.Context) ([]byte, error) // keys.FromEnv or keys.Fetch
	quiet  func(context.Context) ([]byte, error) // set to a literal that ignores its ctx
	// Wait is set to a no-op here; the package that wires the server may set it to a wait on
	// its store, which returns the ctx's error.
	Wait func(context.Context) error
}

// NewEvil sets either to one of two sources, chosen by the environment.
func NewEvil(remote bool) *Evil {
	e := &Evil{either: keys.FromEnv, quiet: func(context.Context) ([]byte, error) { return nil, nil }, Wait: func(context.Context) error { return nil }}
	if remote {
		e.either = keys.Fetch
	}
	return e
}

func (e *Evil) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if _, err := e.either(ctx); err != nil {
		return nil, status.Errorf(codes.Internal, "either: %v", err) // want `status\.Errorf gives code codes\.Internal to the error of the function in field either`
	}
	if _, err := e.quiet(ctx); err != nil {
		return nil, status.Errorf(codes.Internal, "quiet: %v", err) // silent: the only value is a literal that never looks at its ctx
	}
	if err := e.Wait(ctx); err != nil {
		return nil, status.Errorf(codes.Internal, "wait: %v", err) // want `status\.Errorf gives code codes\.Internal to the error of the function in field Wait`
	}
	if err := e.Lookup(ctx, keys.FromEnv); err != nil {
		return nil, status.Errorf(codes.Internal, "lookup: %v", err) // want `status\.Errorf gives code codes\.Internal to the error of Evil\.Lookup`
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}

// Lookup is handed its source by its caller, in another package perhaps: out of sight, the
// source may do anything with the ctx.
func (e *Evil) Lookup(ctx context.Context, src func(context.Context) ([]byte, error)) error {
	_, err := src(ctx)
	return err
}
