package grpcsvc

import (
	"context"

	"example.com/gen/catalogpb"
	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Fanout looks items up side by side on the request's group: the error Wait returns is the
// first of work done on a child of the request's ctx, its deadline's when the request's ends.
type Fanout struct{ Server }

func (s *Fanout) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	g, gctx := errgroup.WithContext(ctx)
	for _, id := range []string{req.GetId(), req.GetId() + "/price"} {
		g.Go(func() error {
			_, err := s.inventory.GetItem(gctx, &catalogpb.GetItemRequest{Id: id})
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, status.Errorf(codes.Internal, "lookup: %v", err) // want `status\.Errorf gives code codes\.Internal to the error of Group\.Wait, which may be the request's deadline or cancellation`
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}

// Local's group does nothing with its ctx: the goroutines' errors are their own.
type Local struct{ Server }

func (s *Local) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	g, _ := errgroup.WithContext(ctx)
	g.Go(func() error { return checkID(req.GetId()) })
	if err := g.Wait(); err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "bad request: %v", err)
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}

func checkID(id string) error { return nil }
