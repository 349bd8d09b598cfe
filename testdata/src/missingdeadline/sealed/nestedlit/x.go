package nestedlit

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

type getCmd struct{}

func (getCmd) Name() string { return "get" }

func (getCmd) Do(args []string, env *Env, w io.Writer) error {
	_, err := env.Client.GetItem(context.Background(), req()) // want `has no deadline`
	return err
}

var _ command = getCmd{}

func withCtx(f func(ctx context.Context)) { f(context.Background()) }

// Start: the invoke is in a literal nested in a literal that takes a ctx.
func Start(cs []command, env *Env) {
	withCtx(func(ctx context.Context) {
		func() { _ = cs[0].Do(nil, env, os.Stdout) }()
	})
}
