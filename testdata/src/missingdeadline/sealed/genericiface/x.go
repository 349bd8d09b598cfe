package genericiface

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

func (s *store) fetch() int {
	_, _ = s.c.GetItem(context.Background(), req()) // want `has no deadline`
	return 0
}

type getCmd struct{ s *store }

func (getCmd) Name() string                                    { return "get" }
func (g getCmd) Do(args []string, env *Env, w io.Writer) error { g.s.fetch(); return nil }

var _ command = getCmd{}

// fetcher is generic: visibleInterfaces skips it, so maybeImplements misses fetch.
type fetcher[T any] interface{ fetch() T }

func Refresh(ctx context.Context, f fetcher[int]) { _ = f.fetch() }
