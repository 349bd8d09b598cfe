package grpcsvc

import (
	"context"
	"sync"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Fanned looks two items up side by side; function literals set the errors it translates.
type Fanned struct{ Server }

func (s *Fanned) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	var (
		wg               sync.WaitGroup
		item, twin       *catalogpb.Item
		itemErr, twinErr error
	)
	wg.Add(2)
	go func() { defer wg.Done(); item, itemErr = s.inventory.GetItem(ctx, req) }()
	go func() { defer wg.Done(); twin, twinErr = s.inventory.GetItem(context.Background(), req) }()
	wg.Wait()
	if twinErr != nil {
		return nil, status.Errorf(codes.Unavailable, "twin: %v", twinErr) // a call made with Background: not the request's deadline
	}
	if itemErr != nil {
		return nil, status.Errorf(codes.Internal, "item: %v", itemErr) // want `status\.Errorf gives code codes\.Internal to the error of CatalogClient\.GetItem`
	}
	_ = twin
	return item, nil
}

// Handed passes the address of its error on: what sets it is out of sight. Silent.
type Handed struct{ Server }

func (s *Handed) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	var err error
	item := fill(ctx, s.inventory, req, &err)
	if err != nil {
		return nil, status.Errorf(codes.Internal, "item: %v", err)
	}
	return item, nil
}

func fill(ctx context.Context, c catalogpb.CatalogClient, req *catalogpb.GetItemRequest, err *error) *catalogpb.Item {
	item, e := c.GetItem(ctx, req)
	*err = e
	return item
}

// Later reports the error of a call that takes no ctx; the named result is assigned the error
// of a call given ctx only after it, and a deferred literal captures it. Silent.
type Later struct{ Server }

func (s *Later) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (item *catalogpb.Item, err error) {
	defer func() {
		if err != nil {
			item = nil
		}
	}()
	if err = validate(req); err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	item, err = s.inventory.GetItem(ctx, req)
	return item, err
}
