// Package named calls through an interface two implementations of which drop: one only when
// asked to turn read-only off, the other always. Turning it on still reaches the second one's
// root: the constant excludes only the branch of the implementation that has one.
package named

import (
	"context"
	"os/exec"

	"ctxbackground/branch/index"
	"example.com/gen/catalogpb"
)

type modeSetter interface {
	SetReadOnly(ctx context.Context, rdonly bool) error
}

var _ modeSetter = (*index.Index)(nil)

// Replica sets the mode with a root of its own, whatever it is asked.
type Replica struct{}

func (Replica) SetReadOnly(ctx context.Context, rdonly bool) error { // want SetReadOnly:"drops ctx"
	return exec.CommandContext(context.Background(), "replica-mode").Run()
}

type Server struct {
	catalogpb.UnimplementedCatalogServer
	store modeSetter
}

func New(i *index.Index) *Server { return &Server{store: i} }

func NewReplica() *Server { return &Server{store: Replica{}} }

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	return &catalogpb.Item{Id: req.GetId()}, s.store.SetReadOnly(ctx, true) // want `\(named\.Replica\)\.SetReadOnly, called in handler Server\.GetItem`
}
