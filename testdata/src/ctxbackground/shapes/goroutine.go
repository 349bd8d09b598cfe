package shapes

import (
	"context"

	"example.com/gen/catalogpb"
)

type spawned struct {
	catalogpb.UnimplementedCatalogServer
}

// A goroutine started with a root, and one whose body creates it: the work may outlive the
// handler, so the message offers WithoutCancel and no fix is suggested.
func (s *spawned) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	go audit(context.Background(), "spawned") // want `context.Background\(\) in handler spawned.GetItem drops the caller's deadline and cancellation; pass ctx, or context.WithoutCancel\(ctx\) with a timeout if the goroutine must outlive it`
	go func() {
		_, _ = load(context.TODO(), req.GetId()) // want `context.TODO\(\) in handler spawned.GetItem .*if the goroutine must outlive it`
	}()
	go audit(ctx, "fine")
	return load(ctx, req.GetId())
}

// A root made in the handler and captured by the goroutine it starts (an acknowledged
// upgrade that runs after the reply): passing ctx alone would cancel the work as the handler
// returns, so the message offers WithoutCancel and no fix is suggested here either.
type acknowledged struct {
	catalogpb.UnimplementedCatalogServer
}

func (s *acknowledged) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	runCtx := context.WithValue(context.Background(), actorKey{}, req.GetId()) // want `context.Background\(\) in handler acknowledged.GetItem drops the caller's deadline and cancellation; pass ctx, or context.WithoutCancel\(ctx\) with a timeout if the goroutine must outlive it`
	go func() {
		_, _ = load(runCtx, req.GetId())
	}()
	return &catalogpb.Item{}, nil
}

type actorKey struct{}
