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
