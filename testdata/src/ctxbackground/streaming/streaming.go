// Package streaming holds streaming handlers in both generated-code styles.
package streaming

import (
	"context"

	"example.com/gen/catalogpb"
	"example.com/gen/legacypb"
	"google.golang.org/grpc"
)

// store stands for the service's storage: what it does with its ctx is out of sight.
type store interface {
	Get(ctx context.Context, id string) (*catalogpb.Item, error)
}

var db store

func fetch(ctx context.Context, id string) (*catalogpb.Item, error) { return db.Get(ctx, id) }

type Catalog struct {
	catalogpb.UnimplementedCatalogServer
}

// ListItems uses the generic grpc.ServerStreamingServer[T] shape.
func (c *Catalog) ListItems(req *catalogpb.ListItemsRequest, stream grpc.ServerStreamingServer[catalogpb.Item]) error {
	item, err := fetch(context.Background(), req.GetCategory()) // want `context.Background\(\) in handler Catalog.ListItems drops the caller's deadline and cancellation; pass stream.Context\(\)`
	if err != nil {
		return err
	}
	return stream.Send(item)
}

// UploadItems is good: it uses the stream's context.
func (c *Catalog) UploadItems(stream grpc.ClientStreamingServer[catalogpb.Item, catalogpb.UploadSummary]) error {
	ctx := stream.Context()
	for {
		item, err := stream.Recv()
		if err != nil {
			return stream.SendAndClose(&catalogpb.UploadSummary{})
		}
		if _, err := fetch(ctx, item.GetId()); err != nil {
			return err
		}
	}
}

// Chat starts a goroutine with TODO.
func (c *Catalog) Chat(stream catalogpb.Catalog_ChatServer) error {
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = fetch(context.TODO(), "side") // want `context.TODO\(\) in handler Catalog.Chat drops`
	}()
	<-done
	return nil
}

type Legacy struct {
	legacypb.UnimplementedLegacyServer
}

// Watch uses the older per-method stream interface.
func (l *Legacy) Watch(req *legacypb.WatchRequest, stream legacypb.Legacy_WatchServer) error {
	_, err := fetch(context.Background(), "w") // want `context.Background\(\) in handler Legacy.Watch`
	return err
}

// Sync is good.
func (l *Legacy) Sync(stream legacypb.Legacy_SyncServer) error {
	_, err := fetch(stream.Context(), "s")
	return err
}
