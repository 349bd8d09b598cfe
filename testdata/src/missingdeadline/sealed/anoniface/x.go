package anoniface

import (
	"context"
	"io"
	"os"

	"example.com/gen/catalogpb"
)

type command interface {
	Name() string
	Do(args []string, env *Env, w io.Writer) error
}

type Env struct {
	Client catalogpb.CatalogClient
}

func run(cmds []command, env *Env, line []string) error {
	for _, c := range cmds {
		if c.Name() == line[0] {
			return c.Do(line[1:], env, os.Stdout)
		}
	}
	return nil
}

func req() *catalogpb.GetItemRequest { return &catalogpb.GetItemRequest{} }

var (
	_ = run
	_ = context.Background
	_ io.Writer
)

type store struct{ c catalogpb.CatalogClient }

// fetch is unexported, called directly only by a command...
func (s *store) fetch() error {
	_, err := s.c.GetItem(context.Background(), req()) // want `has no deadline`
	return err
}

type getCmd struct{ s *store }

func (getCmd) Name() string                                    { return "get" }
func (g getCmd) Do(args []string, env *Env, w io.Writer) error { return g.s.fetch() }

var _ command = getCmd{}

// ...and through an interface literal by a function with a ctx, whose deadline is lost.
func Refresh(ctx context.Context, f interface{ fetch() error }) error { return f.fetch() }

var _ = Refresh
