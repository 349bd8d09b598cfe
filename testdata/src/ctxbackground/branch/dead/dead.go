// Package dead holds handlers whose roots sit in blocks a constant condition keeps from
// running: `if false`, a feature turned off by a constant, a conjunction with a false constant,
// the else of a true one. None runs, in the handler or in a helper. A condition that only looks
// constant (a variable, a call) runs, and its roots are reported.
package dead

import (
	"context"
	"os/exec"

	"example.com/gen/catalogpb"
)

const (
	prefetch = false
	strict   = true
)

// verbose is a variable: it may be set at run time.
var verbose = false

func enabled() bool { return false }

type Server struct {
	catalogpb.UnimplementedCatalogServer
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if false {
		_ = exec.CommandContext(context.Background(), "warm", req.GetId()).Run()
	}
	if prefetch {
		_ = exec.CommandContext(context.Background(), "prefetch").Run()
	}
	if prefetch && req.GetId() != "" {
		_ = exec.CommandContext(context.TODO(), "prefetch", req.GetId()).Run()
	}
	if strict {
		_ = exec.CommandContext(ctx, "check").Run()
	} else {
		_ = exec.CommandContext(context.Background(), "check").Run()
	}
	warm(ctx, req.GetId())
	return &catalogpb.Item{Id: req.GetId()}, nil
}

// warm's root is under a disabled feature.
func warm(ctx context.Context, id string) {
	if prefetch {
		_ = exec.CommandContext(context.Background(), "warm", id).Run()
	}
	_ = exec.CommandContext(ctx, "touch", id).Run()
}

type Live struct {
	catalogpb.UnimplementedCatalogServer
}

func (l *Live) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if verbose {
		_ = exec.CommandContext(context.Background(), "trace", req.GetId()).Run() // want `context\.Background\(\) in handler Live\.GetItem drops`
	}
	if enabled() {
		_ = exec.CommandContext(context.TODO(), "audit", req.GetId()).Run() // want `context\.TODO\(\) in handler Live\.GetItem drops`
	}
	if !strict {
		return nil, nil
	} else if prefetch || req.GetId() == "" {
		_ = exec.CommandContext(context.Background(), "fill").Run() // want `context\.Background\(\) in handler Live\.GetItem drops`
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}
