// Package unary holds a grpc-go service with unary handlers: the basic positive and negative
// cases of ctxbackground.
package unary

import (
	"context"
	"errors"
	"time"

	"example.com/gen/catalogpb"
	"golang.org/x/sync/errgroup"
)

type repo interface {
	Load(ctx context.Context, id string) (*catalogpb.Item, error)
}

// Server implements catalogpb.CatalogServer.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	repo repo
	db   repo
}

// NewServer is a constructor, not a request scope: Background is fine here.
func NewServer(r repo) *Server { // want NewServer:"drops ctx"
	ctx := context.Background()
	_, _ = r.Load(ctx, "warmup")
	return &Server{repo: r}
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	return s.repo.Load(context.Background(), req.GetId()) // want `context.Background\(\) in handler Server.GetItem drops the caller's deadline and cancellation; pass ctx`
}

// Close is not a request scope.
func (s *Server) Close() error { // want Close:"drops ctx"
	_, err := s.repo.Load(context.Background(), "flush")
	return err
}

// refresh is a background worker, not a handler.
func (s *Server) refresh() { // want refresh:"drops ctx"
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, _ = s.repo.Load(ctx, "all")
}

type freshBudget struct {
	catalogpb.UnimplementedCatalogServer
	repo repo
}

func (s *freshBudget) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	cctx, cancel := context.WithTimeout(context.TODO(), 2*time.Second) // want `context\.WithTimeout\(context\.TODO\(\), \.\.\.\) in handler freshBudget\.GetItem replaces the caller's deadline with a fresh one; derive it from ctx`
	defer cancel()
	return s.repo.Load(cctx, req.GetId())
}

type goodServer struct {
	catalogpb.UnimplementedCatalogServer
	repo repo
}

// GetItem derives everything from the request ctx: nothing to report.
func (s *goodServer) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	cctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	g, gctx := errgroup.WithContext(cctx)
	var item *catalogpb.Item
	g.Go(func() error {
		var err error
		item, err = s.repo.Load(gctx, req.GetId())
		return err
	})
	if err := g.Wait(); err != nil {
		return nil, err
	}
	if item == nil {
		return nil, errors.New("not found")
	}
	return item, nil
}

type groupServer struct {
	catalogpb.UnimplementedCatalogServer
	repo repo
}

func (s *groupServer) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	g, gctx := errgroup.WithContext(context.Background()) // want `context.Background\(\) in handler groupServer.GetItem`
	g.Go(func() error {
		_, err := s.repo.Load(gctx, req.GetId())
		return err
	})
	go s.repo.Load(context.TODO(), "prefetch") // want `context.TODO\(\) in handler groupServer.GetItem`
	return nil, g.Wait()
}

func main() { // want main:"drops ctx"
	s := NewServer(nil)
	_, _ = s.repo.Load(context.Background(), "main is not a request scope")
}
