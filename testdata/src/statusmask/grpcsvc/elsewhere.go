package grpcsvc

import (
	"context"
	"time"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Watcher sends a snapshot, then follows changes until the client leaves. Its watch loop asks
// ctx.Err() on the way out, after the snapshot's translation: that says nothing of the
// snapshot's error, which may be the stream's deadline. Reported. A ctx.Err() asked before a
// translation, on its way, tells the error apart: silent.
type Watcher struct{ Server }

func (s *Watcher) ListItems(req *catalogpb.ListItemsRequest, stream grpc.ServerStreamingServer[catalogpb.Item]) error {
	ctx := stream.Context()
	item, err := s.inventory.GetItem(ctx, &catalogpb.GetItemRequest{Id: req.GetCategory()})
	if err != nil {
		return status.Error(codes.Unavailable, "snapshot: "+err.Error()) // want `status\.Error gives code codes\.Unavailable to the error of CatalogClient\.GetItem`
	}
	if err := stream.Send(item); err != nil {
		return err
	}
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
		item, err := s.inventory.GetItem(ctx, &catalogpb.GetItemRequest{Id: req.GetCategory()})
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return status.Errorf(codes.Unavailable, "refresh: %v", err)
		}
		if err := stream.Send(item); err != nil {
			return err
		}
	}
}

// Announcer translates the error of its lookup, then announces the item after replying on a
// goroutine of its own, whose loop checks its detached ctx: that ctx.Err() runs after the reply
// and is not the request's, so it tells nothing of the lookup's error. Reported.
type Announcer struct{ Server }

func (s *Announcer) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	item, err := s.inventory.GetItem(ctx, req)
	if err != nil {
		return nil, status.Errorf(codes.Internal, "lookup: %v", err) // want `status\.Errorf gives code codes\.Internal to the error of CatalogClient\.GetItem`
	}
	go func() {
		actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		defer cancel()
		for range 3 {
			if actx.Err() != nil {
				return
			}
			_, _ = s.inventory.GetItem(actx, &catalogpb.GetItemRequest{Id: "announce/" + req.GetId()})
		}
	}()
	return item, nil
}
