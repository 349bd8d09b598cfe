// Package unrun holds handlers that hand function literals with roots in them to hooks: one
// that never refers to the literal (a marker a build tool rewrites, a no-op) never runs it, and
// nothing in it is reported; one that runs it or keeps it may.
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
		_ = exec.CommandContext(context.TODO(), "later").Run() // want `context\.TODO\(\) in handler Server\.GetItem drops the caller's deadline`
	})
	return &catalogpb.Item{Id: req.GetId()}, nil
}
