package dynamic

import (
	"context"
	"time"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc"
	"missingdeadline/dynamic/runner"
)

// each hands method values and literals to another package's runners.
func (j *job) each(ids []string) {
	_ = runner.Each(context.Background(), ids, j.getOne)                                     // want `no deadline \(ctx from context\.Background\(\)\)`
	_, _ = runner.Do(context.TODO(), 3, func(ctx context.Context) (*catalogpb.Item, error) { // want `no deadline \(ctx from context\.TODO\(\)\)`
		return j.c.GetItem(ctx, &catalogpb.GetItemRequest{Id: ids[0]})
	})
	_ = runner.Within(context.Background(), time.Second, func(ctx context.Context) error { return j.get(ctx) })
	runner.Later(context.Background(), j.get)                                              // kept for later, by whoever runs it
	_ = runner.Forward(context.Background(), ids, j.getOne)                                // want `no deadline \(ctx from context\.Background\(\)\)`
	_ = runner.Shielded(context.Background(), j.get)                                       // handed on to a runner that adds a deadline
	_ = runner.Apply(context.Background(), func(ctx context.Context) error { return nil }) // the callback makes no RPC
}

func (j *job) getOne(ctx context.Context, id string) error {
	_, err := j.c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id})
	return err
}

func (j *job) bounded(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	_, err := j.c.GetItem(ctx, &catalogpb.GetItemRequest{Id: "b"})
	return err
}

// steps is a table of the job's steps, one of which waits on an RPC with the ctx it is given.
func (j *job) steps() {
	ctx := context.Background()
	table := map[string]func(context.Context) error{"get": j.get, "bounded": j.bounded}
	for _, name := range []string{"get", "bounded"} {
		_ = table[name](ctx) // want `no deadline \(ctx from context\.Background\(\)\)`
	}
	checks := map[string]func(context.Context) error{"bounded": j.bounded}
	_ = checks["bounded"](ctx)
}

func (j *job) printGet(_ context.Context, req *catalogpb.GetItemRequest, _ ...grpc.CallOption) (*catalogpb.Item, error) {
	return nil, nil
}

// dryRun prints instead of calling, on one path.
func (j *job) dryRun(dry bool) {
	send := j.c.GetItem
	if dry {
		send = j.printGet
	}
	_, _ = send(context.Background(), &catalogpb.GetItemRequest{Id: "d"}) // want `no deadline \(ctx from context\.Background\(\)\)`
}

var _ = (*job).each
var _ = (*job).steps
var _ = (*job).dryRun

// invoke calls the client method it is given with the ctx it is given.
func invoke[Req, Resp any](ctx context.Context, rpc func(context.Context, Req, ...grpc.CallOption) (Resp, error), req Req) (Resp, error) {
	return rpc(ctx, req)
}

// generic hands a client method value to a generic helper.
func (j *job) generic() {
	_, _ = invoke(context.Background(), j.c.GetItem, &catalogpb.GetItemRequest{Id: "g"}) // want `no deadline \(ctx from context\.Background\(\)\)`
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, _ = invoke(ctx, j.c.GetItem, &catalogpb.GetItemRequest{Id: "h"})
}

var _ = (*job).generic
