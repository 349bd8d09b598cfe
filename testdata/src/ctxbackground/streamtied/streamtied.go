// Package streamtied holds stream handlers that coordinate their goroutines with an errgroup
// made on a root of their own. When one of the group's goroutines returns the error of the
// request stream's Recv — as it is, or wrapped — the stream's end or cancellation makes Recv
// fail, the group's ctx is cancelled, and the work done with it stops with the request: nothing
// is lost (silent). A group whose goroutines swallow Recv's error, or read the request stream
// only in the handler itself, is reported.
package streamtied

import (
	"context"
	"errors"
	"io"

	"example.com/gen/catalogpb"
	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc"
)

type store interface {
	Save(ctx context.Context, m *catalogpb.ChatMessage) error
	Add(ctx context.Context, it *catalogpb.Item) error
}

// Server serves the catalog.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	store store
}

func (s *Server) Chat(stream grpc.BidiStreamingServer[catalogpb.ChatMessage, catalogpb.ChatMessage]) error {
	eg, ctx := errgroup.WithContext(context.TODO()) // silent: the group ends when Recv fails
	msgs := make(chan *catalogpb.ChatMessage)
	eg.Go(func() error {
		defer close(msgs)
		for {
			m, err := stream.Recv()
			if err != nil {
				if !errors.Is(err, io.EOF) {
					return err
				}
				return nil
			}
			select {
			case msgs <- m:
			case <-ctx.Done():
				return nil
			}
		}
	})
	eg.Go(func() error {
		for m := range msgs {
			if err := s.store.Save(ctx, m); err != nil {
				return err
			}
		}
		return nil
	})
	return eg.Wait()
}

func (s *Server) UploadItems(stream grpc.ClientStreamingServer[catalogpb.Item, catalogpb.UploadSummary]) error {
	eg, ctx := errgroup.WithContext(context.Background()) // want `context.Background\(\) in handler Server.UploadItems drops the caller's deadline`
	items := make(chan *catalogpb.Item)
	eg.Go(func() error {
		defer close(items)
		for {
			it, err := stream.Recv()
			if err != nil {
				return nil // the stream's failure is swallowed: the group goes on
			}
			items <- it
		}
	})
	eg.Go(func() error {
		for it := range items {
			if err := s.store.Add(ctx, it); err != nil {
				return err
			}
		}
		return nil
	})
	return eg.Wait()
}
