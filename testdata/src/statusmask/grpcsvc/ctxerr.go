package grpcsvc

import (
	"context"
	"time"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// CtxErr gives the request ctx's own error other codes, where its function also asks ctx.Err()
// (which tells other errors apart): reported. Its own codes, or the error of a ctx with a
// deadline of its own, are not.
type CtxErr struct{ Server }

func (s *CtxErr) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if err := ctx.Err(); err != nil {
		return nil, status.Errorf(codes.Internal, "aborted: %v", err) // want `status\.Errorf gives code codes\.Internal to the request ctx's error, which is its deadline or cancellation; keep its code: status\.FromContextError\(ctx\.Err\(\)\)\.Err\(\)$`
	}
	if ctx.Err() != nil {
		return nil, status.Error(codes.Unavailable, ctx.Err().Error()) // want `status\.Error gives code codes\.Unavailable to the request ctx's error`
	}
	if err := ctx.Err(); err != nil {
		return nil, status.Error(codes.Canceled, err.Error())
	}
	if ctx.Err() != nil {
		return nil, status.FromContextError(ctx.Err()).Err()
	}
	bctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if _, err := s.inventory.GetItem(bctx, req); err != nil {
		if bctx.Err() != nil {
			return nil, status.Errorf(codes.Unavailable, "inventory too slow: %v", bctx.Err())
		}
		return nil, status.Error(codes.NotFound, "no such item")
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}
