package streamtied

import (
	"context"
	"fmt"

	"example.com/gen/catalogpb"
	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc"
)

// Wrapped returns Recv's error wrapped: still non-nil, still ends the group. It is served by
// a second server type registered beside the first.
type Wrapped struct {
	catalogpb.UnimplementedCatalogServer
	store store
}

func (w *Wrapped) Chat(stream grpc.BidiStreamingServer[catalogpb.ChatMessage, catalogpb.ChatMessage]) error {
	eg, ctx := errgroup.WithContext(context.TODO()) // silent
	eg.Go(func() error {
		for {
			m, err := stream.Recv()
			if err != nil {
				return fmt.Errorf("chat: %w", err)
			}
			if err := w.store.Save(ctx, m); err != nil {
				return err
			}
		}
	})
	return eg.Wait()
}

// UploadItems reads the stream in the handler, outside the group: the group's goroutine never
// sees its failure.
func (w *Wrapped) UploadItems(stream grpc.ClientStreamingServer[catalogpb.Item, catalogpb.UploadSummary]) error {
	eg, ctx := errgroup.WithContext(context.TODO()) // want `context.TODO\(\) in handler Wrapped.UploadItems drops the caller's deadline`
	it, err := stream.Recv()
	if err != nil {
		return err
	}
	eg.Go(func() error { return w.store.Add(ctx, it) })
	return eg.Wait()
}

// ListItems's group returns the error of a Recv on another stream, not the request's.
func (w *Wrapped) ListItems(req *catalogpb.ListItemsRequest, stream grpc.ServerStreamingServer[catalogpb.Item]) error {
	eg, ctx := errgroup.WithContext(context.Background()) // want `context.Background\(\) in handler Wrapped.ListItems drops the caller's deadline`
	var feed grpc.ClientStreamingServer[catalogpb.Item, catalogpb.UploadSummary]
	eg.Go(func() error {
		for {
			it, err := feed.Recv()
			if err != nil {
				return err
			}
			if err := w.store.Add(ctx, it); err != nil {
				return err
			}
		}
	})
	return eg.Wait()
}
