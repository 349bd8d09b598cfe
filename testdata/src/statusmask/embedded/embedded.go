// Package embedded translates errors of methods a store promotes from interfaces it embeds. One
// whose every implementation only logs with its ctx returns no error of it: silent. One with no
// implementation in sight may return the request's deadline: reported.
package embedded

import (
	"context"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"statusmask/embedded/store"
)

type Server struct {
	catalogpb.UnimplementedCatalogServer
	ds   *store.DataStore
	base string
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	ref, err := s.ds.Construct(ctx, s.base, req.GetId())
	if err != nil {
		return nil, status.Errorf(codes.Internal, "reference: %v", err) // built in memory: silent
	}
	if _, err := s.ds.Head(ctx, ref); err != nil {
		return nil, status.Errorf(codes.Internal, "head: %v", err) // want `status\.Errorf gives code codes\.Internal to the error of`
	}
	return &catalogpb.Item{Id: ref}, nil
}
