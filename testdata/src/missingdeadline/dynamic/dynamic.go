// Package dynamic is a maintenance job whose deadline-less ctx reaches an RPC through a
// function value: a callback given to a runner, a method value of the generated client, a
// table of commands, a closure a helper returns. Beside each, the same shape with a deadline.
package dynamic

import (
	"context"
	"time"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc"
)

// retry runs fn with the ctx it is given.
func retry(ctx context.Context, attempts int, fn func(context.Context) error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = fn(ctx); err == nil {
			return nil
		}
	}
	return err
}

type job struct {
	c    catalogpb.CatalogClient
	conn grpc.ClientConnInterface
}

// get calls the catalog with the ctx it is given.
func (j *job) get(ctx context.Context) error {
	_, err := j.c.GetItem(ctx, &catalogpb.GetItemRequest{Id: "1"})
	return err
}

// A callback handed to a runner, with a root and no deadline.
func (j *job) refresh() {
	_ = retry(context.Background(), 3, func(ctx context.Context) error { // want `no deadline \(ctx from context\.Background\(\)\)`
		_, err := j.c.GetItem(ctx, &catalogpb.GetItemRequest{Id: "1"})
		return err
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = retry(ctx, 3, j.get)
}

// A method value of the generated client, merged by a phi with another: both RPCs.
func (j *job) lookup(ids []string, list bool) {
	call := j.c.GetItem
	if list {
		call = j.c.GetItem
	}
	_, _ = call(context.Background(), &catalogpb.GetItemRequest{Id: ids[0]}) // want `no deadline \(ctx from context\.Background\(\)\)`
}

// A method value of the job, through a table of commands.
type command struct {
	run func(context.Context) error
}

func (j *job) commands() map[string]command {
	return map[string]command{"get": {run: j.get}}
}

func (j *job) dispatch(name string) {
	cmds := j.commands()
	if cmd, ok := cmds[name]; ok {
		_ = cmd.run(context.TODO()) // want `no deadline \(ctx from context\.TODO\(\)\)`
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = cmds["get"].run(ctx)
}

// A closure a helper returns, called later.
func (j *job) prepare(id string) func(context.Context) error {
	return func(ctx context.Context) error {
		_, err := j.c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id})
		return err
	}
}

func (j *job) sweep() {
	run := j.prepare("1")
	_ = run(context.Background()) // want `no deadline \(ctx from context\.Background\(\)\)`
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = j.prepare("2")(ctx)
}

// Invoke on a ClientConnInterface is a unary call.
func (j *job) raw() {
	_ = j.conn.Invoke(context.Background(), "/catalog.v1.Catalog/GetItem", nil, nil) // want `no deadline \(ctx from context\.Background\(\)\)`
}

var _ = (*job).refresh
var _ = (*job).lookup
var _ = (*job).dispatch
var _ = (*job).sweep
var _ = (*job).raw
