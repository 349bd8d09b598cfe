package constraint

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

func (s *store) fetch() error {
	_, err := s.c.GetItem(context.Background(), req()) // want `has no deadline`
	return err
}

type getCmd struct{ s *store }

func (getCmd) Name() string                                    { return "get" }
func (g getCmd) Do(args []string, env *Env, w io.Writer) error { return g.s.fetch() }

var _ command = getCmd{}

type fetcher interface{ fetch() error }

// RefreshAll calls fetch through a type parameter, with a ctx in sight.
func RefreshAll[T fetcher](ctx context.Context, xs []T) {
	for _, x := range xs {
		_ = x.fetch()
	}
}

var _ = RefreshAll[*store]
