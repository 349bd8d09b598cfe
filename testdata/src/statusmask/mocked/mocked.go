// Package mocked translates errors of calls through an interface of another package of the
// module. The store's one implementation serves Get from memory (its ctx reaches no work, so its
// error is never the request's deadline) and Fetch from a remote backend. The generated mocks of
// the interface, which the package's tests import, answer what a test programmed: they are no
// implementation a production call reaches.
package mocked

import (
	"context"
	"errors"

	"example.com/gen/catalogpb"
	"example.com/repodb"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// source has a second, hand-written implementation that waits on its ctx: not a mock.
type source interface {
	Load(ctx context.Context, id string) (string, error)
}

type memory struct{ m map[string]string }

func (s memory) Load(_ context.Context, id string) (string, error) { return s.m[id], nil }

type waiting struct{ ready chan string }

func (s waiting) Load(ctx context.Context, id string) (string, error) {
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case v := <-s.ready:
		return v + id, nil
	}
}

type Server struct {
	catalogpb.UnimplementedCatalogServer
	store repodb.Store
	src   source
}

// NewServer takes its source from the caller: which implementation it holds is out of sight.
func NewServer(s repodb.Store, src source) *Server {
	return &Server{store: s, src: src}
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	it, err := s.store.Get(ctx, req.GetId())
	if err != nil {
		return nil, status.Errorf(codes.Internal, "get: %v", err) // every store in sight reads memory: silent
	}
	if _, err := s.src.Load(ctx, it.ID); err != nil {
		return nil, status.Errorf(codes.Internal, "load: %v", err) // want `status\.Errorf gives code codes\.Internal to the error of source\.Load`
	}
	if _, err := s.store.Fetch(ctx, it.ID); err != nil {
		return nil, status.Errorf(codes.Internal, "fetch: %v", err) // want `status\.Errorf gives code codes\.Internal to the error of Store\.Fetch`
	}
	return &catalogpb.Item{Id: it.ID}, nil
}

var errUnused = errors.New("unused")

var _ = waiting{}
