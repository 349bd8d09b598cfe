// Package unrun holds handlers that hand function literals with roots in them to hooks: one
// that never refers to the literal (a marker a build tool rewrites, a no-op) never runs it, and
// nothing in it is reported; one that keeps it runs it after the request, not for it; one that
// runs it runs it for the request.
package unrun

import (
	"context"
	"os/exec"

	"ctxbackground/branch/marker"
	"example.com/gen/catalogpb"
)

type Server struct {
	catalogpb.UnimplementedCatalogServer
}

// trace is the package's own no-op hook.
func trace(name string, f func(context.Context)) {}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	marker.Inject("slow-warm", func() {
		_ = exec.CommandContext(context.Background(), "warm", req.GetId()).Run() // never runs: silent
	})
	marker.Hook("before", func() {
		_ = exec.CommandContext(context.TODO(), "before").Run() // never runs: silent
	})
	trace("get", func(context.Context) {
		_ = exec.CommandContext(context.Background(), "trace").Run() // never runs: silent
	})
	marker.Run(func() {
		_ = exec.CommandContext(context.Background(), "run").Run() // want `context\.Background\(\) in handler Server\.GetItem drops the caller's deadline`
	})
	marker.Keep(func() {
		_ = exec.CommandContext(context.TODO(), "later").Run() // kept for later: runs after the request, silent
	})
	return &catalogpb.Item{Id: req.GetId()}, nil
}

type runner struct{}

// Run runs f and never refers to g.
func (*runner) Run(f func(), g func()) { f() }

// ListItems calls Run as a method expression: the receiver comes first among the arguments.
func (s *Server) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	r := new(runner)
	(*runner).Run(r, func() {
		_ = exec.CommandContext(context.Background(), "run").Run() // want `context\.Background\(\) in handler Server\.ListItems drops`
	}, func() {
		_ = exec.CommandContext(context.Background(), "never").Run() // g is never referred to: silent
	})
	return nil
}
