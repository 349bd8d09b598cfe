// Package evil holds the shapes most likely to fool ctxflow.
package evil

import (
	"context"

	"example.com/gen/catalogpb"
)

func load(ctx context.Context, id string) (*catalogpb.Item, error) { return nil, nil }

type job struct {
	ctx context.Context
}

// retry calls f with a ctx of its own choosing: the literal's parameter is not a drop.
func retry(ctx context.Context, f func(ctx context.Context) error) error { return f(ctx) }

type Server struct {
	catalogpb.UnimplementedCatalogServer
	jobs  chan *job
	cache context.Context
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	// A job received from a channel: where its ctx comes from cannot be told here.
	j := <-s.jobs
	_, _ = load(j.ctx, "unknown")
	// A literal's own parameter.
	_ = retry(ctx, func(ctx context.Context) error {
		_, err := load(ctx, "param")
		return err
	})
	// ctx.Done and ctx.Err take no ctx argument: they are not calls to report.
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	default:
	}
	// A local struct that escapes into a call: the field may be set there; stay silent.
	local := &job{}
	fill(local, ctx)
	_, _ = load(local.ctx, "filled")
	//deadlinelint:ignore ctxflow this read-through cache is shared across requests on purpose
	_, _ = load(s.cache, "suppressed")
	//deadlinelint:ignore ctxflow a root is ctxbackground's finding, not ctxflow's // want `unused //deadlinelint:ignore ctxflow`
	_, _ = load(s.cacheCtx(), "not ctxflow's")
	return load(ctx, req.GetId())
}

var shared = &Server{}

func (s *Server) cacheCtx() context.Context { return context.TODO() }

func fill(j *job, ctx context.Context) { j.ctx = ctx }
