// Package fix checks ctxbackground's suggested fixes.
package fix

import (
	"context"
	"time"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc"
)

type store interface {
	Get(ctx context.Context, id string) (*catalogpb.Item, error)
}

var db store

func load(ctx context.Context, id string) (*catalogpb.Item, error) { return db.Get(ctx, id) }

type Server struct {
	catalogpb.UnimplementedCatalogServer
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	cctx, cancel := context.WithTimeout(context.Background(), time.Second) // want `context\.WithTimeout\(context\.Background\(\), \.\.\.\) in handler Server\.GetItem replaces the caller's deadline with a fresh one; derive it from ctx`
	defer cancel()
	go func() {
		_, _ = load(context.TODO(), "async") // want `context.TODO\(\) in handler Server.GetItem drops the caller's deadline and cancellation; pass ctx, or context.WithoutCancel\(ctx\) with a timeout if the goroutine must outlive it`
	}()
	go load(context.Background(), "prefetch") // want `starts a goroutine|pass ctx, or context.WithoutCancel`
	return load(cctx, req.GetId())
}

func (s *Server) ListItems(req *catalogpb.ListItemsRequest, stream grpc.ServerStreamingServer[catalogpb.Item]) error {
	item, err := load(context.Background(), req.GetCategory()) // want `pass stream.Context\(\)`
	if err != nil {
		return err
	}
	return stream.Send(item)
}

func (s *Server) UploadItems(_ grpc.ClientStreamingServer[catalogpb.Item, catalogpb.UploadSummary]) error {
	_, err := load(context.Background(), "no fix: the stream has no name") // want `pass the stream's Context\(\)`
	return err
}

// Acker acknowledges and works after the reply, on a root its goroutine captures: ctx would
// cancel the work as the handler returns, so no fix is offered.
type Acker struct {
	catalogpb.UnimplementedCatalogServer
}

type actorKey struct{}

func (a *Acker) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	runCtx := context.WithValue(context.Background(), actorKey{}, req.GetId()) // want `pass ctx, or context.WithoutCancel\(ctx\) with a timeout if the goroutine must outlive it`
	go func() {
		_, _ = load(runCtx, req.GetId())
	}()
	return &catalogpb.Item{}, nil
}
