// Package tied is a job that bounds its run and follows a stream with a root it cancels when
// the run's ctx is done (context.AfterFunc(ctx, cancel)): the follow stops at the run's
// deadline, and is not reported. A root tied to nothing is.
package tied

import (
	"context"
	"time"

	"example.com/gen/catalogpb"
)

// follow cancels its root when ctx is done.
func follow(ctx context.Context, c catalogpb.CatalogClient, id string) error {
	fctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	defer context.AfterFunc(ctx, cancel)()
	_, err := c.GetItem(fctx, &catalogpb.GetItemRequest{Id: id})
	return err
}

// loose never ties its root.
func loose(ctx context.Context, c catalogpb.CatalogClient, id string) error {
	fctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := c.GetItem(fctx, &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\)\)`
	return err
}

// watch cancels its root from a goroutine that waits for ctx to be done: the idiom
// context.AfterFunc replaced.
func watch(ctx context.Context, c catalogpb.CatalogClient, id string) error {
	fctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-ctx.Done()
		cancel()
	}()
	_, err := c.GetItem(fctx, &catalogpb.GetItemRequest{Id: id})
	return err
}

// early cancels from a goroutine that does not wait for ctx: the root is tied to nothing.
func early(ctx context.Context, c catalogpb.CatalogClient, id string) error {
	fctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(time.Hour)
		cancel()
	}()
	_, err := c.GetItem(fctx, &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\)\)`
	return err
}

// Run bounds the job.
func Run(c catalogpb.CatalogClient) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := follow(ctx, c, "a"); err != nil {
		return err
	}
	if err := watch(ctx, c, "c"); err != nil {
		return err
	}
	if err := early(ctx, c, "d"); err != nil {
		return err
	}
	return loose(ctx, c, "b")
}
