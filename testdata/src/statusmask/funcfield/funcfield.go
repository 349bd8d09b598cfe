// Package funcfield is a catalog service that checks items with a verifier of another package
// and loads them through function fields of its own. A call whose every function value, all in
// sight, never uses its ctx (a verifier's Init whose key source ignores the ctx; a loader field
// the constructor sets to such a function) returns no error of the ctx: its code is no mask
// (silent). A function value that works with its ctx, or may hold one that does, is reported.
package funcfield

import (
	"context"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"statusmask/funcfield/keys"
	"statusmask/funcfield/verify"
)

// Server serves the catalog.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	v       *verify.Verifier
	loadKey func(context.Context) ([]byte, error)
	fetch   func(context.Context) ([]byte, error)
}

// NewServer wires the server's key sources.
func NewServer() *Server {
	return &Server{v: verify.New(), loadKey: keys.FromEnv, fetch: keys.Fetch}
}

var fromEnv = keys.FromEnv

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if err := s.v.Init(ctx); err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "verifier: %v", err) // silent: Init's key source never uses the ctx
	}
	if _, err := s.loadKey(ctx); err != nil {
		return nil, status.Errorf(codes.Internal, "key: %v", err) // silent: the field only ever holds keys.FromEnv
	}
	if _, err := fromEnv(ctx); err != nil {
		return nil, status.Errorf(codes.Internal, "env key: %v", err) // silent: a package variable only ever set to keys.FromEnv
	}
	local := []func(context.Context) ([]byte, error){keys.FromEnv}
	if _, err := local[0](ctx); err != nil {
		return nil, status.Errorf(codes.Internal, "local key: %v", err) // silent: a local list of keys.FromEnv, kept where it is made
	}
	filled := []func(context.Context) ([]byte, error){keys.FromEnv}
	fill(filled)
	if _, err := filled[0](ctx); err != nil {
		return nil, status.Errorf(codes.Internal, "filled key: %v", err) // want `status\.Errorf gives code codes\.Internal to the error of a function value`
	}
	if err := s.v.Refresh(ctx); err != nil {
		return nil, status.Errorf(codes.Unavailable, "refresh: %v", err) // want `status\.Errorf gives code codes\.Unavailable to the error of Verifier\.Refresh`
	}
	if _, err := s.fetch(ctx); err != nil {
		return nil, status.Errorf(codes.Internal, "fetch: %v", err) // want `status\.Errorf gives code codes\.Internal to the error of the function in field fetch`
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}

// fill may put any source in the list it is given.
func fill(l []func(context.Context) ([]byte, error)) { l[0] = keys.Fetch }
