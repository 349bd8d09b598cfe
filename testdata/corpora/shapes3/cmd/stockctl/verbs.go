package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"iter"
	"os"
	"os/signal"
	"strconv"
	"time"

	"google.golang.org/grpc"

	invpb "example.test/shapes3/gen/inventory/v1"
	jobspb "example.test/shapes3/gen/jobs/v1"
	"example.test/shapes3/internal/fanout"
	"example.test/shapes3/internal/retry"
)

type cli struct {
	inv     invpb.InventoryServiceClient
	jobs    jobspb.JobServiceClient
	cc      grpc.ClientConnInterface
	src     stockReader
	replica jobReader
	timeout time.Duration
	out     io.Writer
}

// eachSKU calls fn for every SKU with ctx.
func eachSKU(ctx context.Context, skus []string, fn func(context.Context, string) error) error {
	for _, sku := range skus {
		if err := fn(ctx, sku); err != nil {
			return fmt.Errorf("%s: %w", sku, err)
		}
	}
	return nil
}

func (c *cli) printPrice(ctx context.Context, sku string) error {
	item, err := c.inv.GetItem(ctx, &invpb.GetItemRequest{Sku: sku})
	if err != nil {
		return err
	}
	fmt.Fprintf(c.out, "%s\t%s\t%d.%02d\n", item.GetSku(), item.GetName(), item.GetPriceCents()/100, item.GetPriceCents()%100)
	return nil
}

func (c *cli) printStock(ctx context.Context, sku string) error {
	item, err := c.inv.GetItem(ctx, &invpb.GetItemRequest{Sku: sku})
	if err != nil {
		return err
	}
	fmt.Fprintf(c.out, "%s\t%d on hand\t%d reserved\n", item.GetSku(), item.GetOnHand(), item.GetReserved())
	return nil
}

func (c *cli) prices(skus []string) error {
	ctx := context.Background()
	return eachSKU(ctx, skus, c.printPrice) // BUG: missingdeadline
}

func (c *cli) stock(skus []string) error {
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	return eachSKU(ctx, skus, c.printStock) // OK: the ctx eachSKU passes on has a deadline
}

// stockReader tells how much of a SKU is available.
type stockReader interface {
	OnHand(ctx context.Context, sku string) (int64, error)
}

// remoteStock asks the inventory service.
type remoteStock struct{ c invpb.InventoryServiceClient }

func (r remoteStock) OnHand(ctx context.Context, sku string) (int64, error) {
	item, err := r.c.GetItem(ctx, &invpb.GetItemRequest{Sku: sku})
	if err != nil {
		return 0, err
	}
	return item.GetOnHand() - item.GetReserved(), nil
}

func (c *cli) check(skus []string) error {
	ctx := context.Background()
	for _, sku := range skus {
		n, err := c.src.OnHand(ctx, sku) // BUG: missingdeadline
		if err != nil {
			return err
		}
		fmt.Fprintf(c.out, "%s\t%d available\n", sku, n)
	}
	return nil
}

func (c *cli) get(skus []string) error {
	ctx := context.Background()
	for _, sku := range skus {
		item, err := retry.Do(ctx, 3, func(ctx context.Context) (*invpb.Item, error) { // BUG: missingdeadline
			return c.inv.GetItem(ctx, &invpb.GetItemRequest{Sku: sku})
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(c.out, "%s\t%s\t%d\n", item.GetSku(), item.GetName(), item.GetOnHand())
	}
	return nil
}

// call makes one unary call and says which request failed.
func call[Req, Resp any](ctx context.Context, rpc func(context.Context, Req, ...grpc.CallOption) (Resp, error), req Req) (Resp, error) {
	resp, err := rpc(ctx, req)
	if err != nil {
		var zero Resp
		return zero, fmt.Errorf("%T: %w", req, err)
	}
	return resp, nil
}

// callWithin is call with a deadline of d.
func callWithin[Req, Resp any](ctx context.Context, d time.Duration, rpc func(context.Context, Req, ...grpc.CallOption) (Resp, error), req Req) (Resp, error) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	return call(ctx, rpc, req)
}

func (c *cli) adjust(args []string) error {
	if len(args) != 2 {
		return errUsage
	}
	delta, err := strconv.ParseInt(args[1], 10, 64)
	if err != nil {
		return err
	}
	ctx := context.Background()
	item, err := call(ctx, c.inv.Adjust, &invpb.AdjustRequest{Sku: args[0], Delta: delta, Reason: "stockctl"}) // BUG: missingdeadline
	if err != nil {
		return err
	}
	fmt.Fprintf(c.out, "%s\t%d on hand\n", item.GetSku(), item.GetOnHand())
	return nil
}

func (c *cli) job(ids []string) error {
	ctx := context.Background()
	for _, id := range ids {
		j, err := callWithin(ctx, commandTimeout, c.jobs.GetJob, &jobspb.JobRequest{Id: id}) // OK: callWithin puts a deadline on the call
		if err != nil {
			return err
		}
		fmt.Fprintf(c.out, "%s\t%s\t%s\n", j.GetId(), j.GetKind(), j.GetState())
	}
	return nil
}

// jobReader reads jobs.
type jobReader interface {
	Job(ctx context.Context, id string) (*jobspb.Job, error)
}

// boundedJobs reads from the dispatcher's replica, each call within d.
type boundedJobs struct {
	c jobspb.JobServiceClient
	d time.Duration
}

func (b boundedJobs) Job(ctx context.Context, id string) (*jobspb.Job, error) {
	ctx, cancel := context.WithTimeout(ctx, b.d)
	defer cancel()
	return b.c.PeekJob(ctx, &jobspb.JobRequest{Id: id})
}

func (c *cli) show(ids []string) error {
	ctx := context.Background()
	for _, id := range ids {
		j, err := c.replica.Job(ctx, id) // OK: the only implementation bounds every call
		if err != nil {
			return err
		}
		fmt.Fprintf(c.out, "%s\t%s\t%s\n", j.GetId(), j.GetKind(), j.GetState())
	}
	return nil
}

// holder returns the function that reserves qty of sku.
func (c *cli) holder(sku string, qty int64) func(context.Context) (string, error) {
	return func(ctx context.Context) (string, error) {
		r, err := c.inv.Reserve(ctx, &invpb.ReserveRequest{Sku: sku, Quantity: qty, JobId: "manual"})
		if err != nil {
			return "", err
		}
		return r.GetId(), nil
	}
}

func (c *cli) reserve(args []string) error {
	if len(args) != 2 {
		return errUsage
	}
	qty, err := strconv.ParseInt(args[1], 10, 64)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	hold := c.holder(args[0], qty)
	id, err := hold(ctx) // BUG: missingdeadline
	if err != nil {
		return err
	}
	fmt.Fprintln(c.out, id)
	return nil
}

// freer returns the function that releases the reservation id.
func (c *cli) freer(id string) func(context.Context) error {
	return func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(ctx, commandTimeout)
		defer cancel()
		_, err := c.inv.Release(ctx, &invpb.ReleaseRequest{ReservationId: id})
		return err
	}
}

func (c *cli) release(ids []string) error {
	ctx := context.Background()
	for _, id := range ids {
		free := c.freer(id)
		if err := free(ctx); err != nil { // OK: the closure puts its own deadline on the call
			return fmt.Errorf("%s: %w", id, err)
		}
	}
	return nil
}

// items yields every inventory item, page by page, with ctx.
func (c *cli) items(ctx context.Context) iter.Seq2[*invpb.Item, error] {
	return func(yield func(*invpb.Item, error) bool) {
		token := ""
		for {
			resp, err := c.inv.ListItems(ctx, &invpb.ListItemsRequest{PageToken: token, PageSize: 200})
			if err != nil {
				yield(nil, err)
				return
			}
			for _, item := range resp.GetItems() {
				if !yield(item, nil) {
					return
				}
			}
			if token = resp.GetNextPageToken(); token == "" {
				return
			}
		}
	}
}

// pagesWithin yields the inventory page by page, each page fetched within perPage.
func (c *cli) pagesWithin(ctx context.Context, perPage time.Duration) iter.Seq2[[]*invpb.Item, error] {
	return func(yield func([]*invpb.Item, error) bool) {
		token := ""
		for {
			pctx, cancel := context.WithTimeout(ctx, perPage)
			resp, err := c.inv.ListItems(pctx, &invpb.ListItemsRequest{PageToken: token, PageSize: 500})
			cancel()
			if err != nil {
				yield(nil, err)
				return
			}
			if !yield(resp.GetItems(), nil) {
				return
			}
			if token = resp.GetNextPageToken(); token == "" {
				return
			}
		}
	}
}

func (c *cli) list() error {
	ctx := context.Background()
	for item, err := range c.items(ctx) { // BUG: missingdeadline
		if err != nil {
			return err
		}
		fmt.Fprintf(c.out, "%s\t%s\n", item.GetSku(), item.GetName())
	}
	return nil
}

func (c *cli) export() error {
	ctx := context.Background()
	w := csv.NewWriter(c.out)
	for page, err := range c.pagesWithin(ctx, pageTimeout) { // OK: every page is fetched with its own deadline
		if err != nil {
			return err
		}
		for _, item := range page {
			rec := []string{item.GetSku(), item.GetName(), strconv.FormatInt(item.GetOnHand(), 10)}
			if err := w.Write(rec); err != nil {
				return err
			}
		}
	}
	w.Flush()
	return w.Error()
}

func (c *cli) watch(skus []string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	stream, err := c.inv.WatchStock(ctx, &invpb.WatchStockRequest{Skus: skus}) // OK: a stream, followed until interrupted
	if err != nil {
		return err
	}
	for {
		ev, err := stream.Recv()
		if err == io.EOF || ctx.Err() != nil {
			return nil
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(c.out, "%s\t%d\n", ev.GetSku(), ev.GetOnHand())
	}
}

func (c *cli) reindexOne(ctx context.Context, id string) error {
	_, err := c.jobs.Reindex(ctx, &jobspb.JobRequest{Id: id})
	return err
}

func (c *cli) retryOne(ctx context.Context, id string) error {
	ctx, cancel := context.WithTimeout(ctx, commandTimeout)
	defer cancel()
	_, err := c.jobs.RetryJob(ctx, &jobspb.JobRequest{Id: id})
	return err
}

func (c *cli) reindex(ids []string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return fanout.Each(ctx, ids, c.reindexOne) // BUG: missingdeadline
}

func (c *cli) retryJobs(ids []string) error {
	ctx := context.Background()
	failed := fanout.Collect(ctx, ids, c.retryOne) // OK: retryOne puts its own deadline on each call
	if len(failed) > 0 {
		return fmt.Errorf("%d jobs not retried: %v", len(failed), failed)
	}
	return nil
}

// remoteOp is a dispatcher command.
type remoteOp struct {
	help string
	call func(context.Context, *jobspb.CommandRequest, ...grpc.CallOption) (*jobspb.CommandReply, error)
}

func (c *cli) shardOps() map[string]remoteOp {
	return map[string]remoteOp{
		"drain": {"park every queued job of the shard", c.jobs.RunCommand},
		"sync":  {"move jobs to the shard their id hashes to", c.jobs.SyncShards},
		"stage": {"stage jobs for a bulk move", c.jobs.StageJobs},
	}
}

func (c *cli) laneOps() map[string]remoteOp {
	return map[string]remoteOp{
		"pause":  {"stop handing out jobs of the lane", c.jobs.RunCommand},
		"resume": {"hand out jobs of the lane again", c.jobs.RunCommand},
	}
}

func (c *cli) shard(args []string) error {
	if len(args) < 2 {
		return errUsage
	}
	op, ok := c.shardOps()[args[0]]
	if !ok {
		return fmt.Errorf("unknown shard command %q", args[0])
	}
	ctx := context.Background()
	reply, err := op.call(ctx, &jobspb.CommandRequest{Op: args[0], Shard: args[1], Ids: args[2:]}) // BUG: missingdeadline
	if err != nil {
		return fmt.Errorf("%s (%s): %w", args[0], op.help, err)
	}
	fmt.Fprintf(c.out, "%s\t%d\n", reply.GetOutput(), reply.GetCount())
	return nil
}

func (c *cli) lane(args []string) error {
	if len(args) != 2 {
		return errUsage
	}
	op, ok := c.laneOps()[args[0]]
	if !ok {
		return fmt.Errorf("unknown lane command %q", args[0])
	}
	ctx := context.Background()
	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	reply, err := op.call(ctx, &jobspb.CommandRequest{Op: args[0], Arg: args[1]}) // OK: the deadline is the -timeout flag's, the operator's decision
	if err != nil {
		return fmt.Errorf("%s (%s): %w", args[0], op.help, err)
	}
	fmt.Fprintln(c.out, reply.GetOutput())
	return nil
}

func (c *cli) raw(args []string) error {
	if len(args) != 2 {
		return errUsage
	}
	ctx := context.Background()
	var out invpb.Item
	if err := c.cc.Invoke(ctx, "/inventory.v1.InventoryService/"+args[0], &invpb.GetItemRequest{Sku: args[1]}, &out); err != nil { // BUG: missingdeadline
		return err
	}
	fmt.Fprintf(c.out, "%v\n", &out)
	return nil
}

func (c *cli) ping() error {
	ctx, cancel := context.WithTimeout(context.Background(), pingTimeout)
	defer cancel()
	start := time.Now()
	if err := c.cc.Invoke(ctx, "/inventory.v1.InventoryService/GetItem", &invpb.GetItemRequest{Sku: "__ping__"}, &invpb.Item{}); err != nil { // OK: the ctx has a deadline
		return err
	}
	fmt.Fprintf(c.out, "ok in %v\n", time.Since(start).Round(time.Millisecond))
	return nil
}
