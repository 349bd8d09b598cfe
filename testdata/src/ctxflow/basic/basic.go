// Package basic holds the positive and negative cases of ctxflow.
package basic

import (
	"context"
	"time"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc"
)

func load(ctx context.Context, id string) (*catalogpb.Item, error) { return nil, nil }

var processCtx = context.Background()

var app struct {
	ctx context.Context
}

// Server keeps its lifetime ctx in a field.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	baseCtx context.Context
	cond    bool
}

// NewServer is not a request scope.
func NewServer(ctx context.Context) *Server {
	s := &Server{baseCtx: ctx}
	_, _ = load(s.baseCtx, "warmup")
	return s
}

func (s *Server) lifetime() context.Context { return s.baseCtx }

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if _, err := load(s.baseCtx, "field"); err != nil { // want `basic.load in handler Server.GetItem uses receiver field baseCtx, a ctx that outlives the request; pass ctx`
		return nil, err
	}
	tctx, cancel := context.WithTimeout(s.baseCtx, time.Second)
	defer cancel()
	_, _ = load(tctx, "derived from the field") // want `basic\.load in handler Server\.GetItem uses receiver field baseCtx, a ctx that outlives the request; pass ctx`
	_, _ = load(processCtx, "global")           // want `basic\.load in handler Server\.GetItem uses package-level variable processCtx, a ctx that outlives the request; pass ctx`
	_, _ = load(app.ctx, "global struct")       // want `basic\.load in handler Server\.GetItem uses field ctx of a package-level variable, a ctx that outlives the request; pass ctx`
	_, _ = load(s.lifetime(), "helper")         // want `basic\.load in handler Server\.GetItem uses receiver field baseCtx, a ctx that outlives the request; pass ctx`
	c := ctx
	if s.cond {
		c = s.baseCtx
	}
	_, _ = load(c, "phi")           // want `basic\.load in handler Server\.GetItem uses receiver field baseCtx, a ctx that outlives the request; pass ctx`
	go load(s.baseCtx, "goroutine") // want `basic\.load in handler Server\.GetItem uses receiver field baseCtx, a ctx that outlives the request; pass ctx`
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = load(s.baseCtx, "closure") // want `basic\.load in handler Server\.GetItem uses receiver field baseCtx, a ctx that outlives the request; pass ctx`
	}()
	<-done
	return load(ctx, req.GetId())
}

func (s *Server) ListItems(req *catalogpb.ListItemsRequest, stream grpc.ServerStreamingServer[catalogpb.Item]) error {
	_, err := load(s.baseCtx, "stream") // want `pass stream.Context\(\)`
	return err
}

// worker is a background worker: its field ctx is right.
func (s *Server) worker() {
	_, _ = load(s.baseCtx, "tick")
}

type state struct {
	ctx context.Context
	id  string
}

type perRequest struct {
	catalogpb.UnimplementedCatalogServer
}

// GetItem keeps the request ctx in a per-request struct: fine.
func (p *perRequest) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	st := &state{ctx: ctx, id: req.GetId()}
	return load(st.ctx, st.id)
}

type others struct {
	catalogpb.UnimplementedCatalogServer
}

// Roots and detached contexts are other rules' findings.
func (o *others) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	_, _ = load(context.Background(), "ctxbackground's")
	_, _ = load(context.WithoutCancel(ctx), "detach's")
	return load(ctx, req.GetId())
}

// Authz is an interceptor method whose receiver outlives the request.
type Authz struct{ base context.Context }

func (a *Authz) Unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
	_, _ = load(a.base, "audit") // want `basic.load in interceptor Authz.Unary uses receiver field base`
	return h(ctx, req)
}

// Consumer is a marked queue consumer holding its start-up ctx.
type Consumer struct{ ctx context.Context }

// Handle runs once per message.
//
//deadlinelint:scope
func (c *Consumer) Handle(ctx context.Context, id string) error {
	_, err := load(c.ctx, id) // want `in request scope Consumer.Handle uses receiver field ctx`
	return err
}
