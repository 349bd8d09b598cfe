package order2

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

// Shared is exported: its root is its own decision.
func Shared() context.Context { return context.TODO() }

func (getCmd) Do(args []string, env *Env, w io.Writer) error {
	ctx := Shared()
	if len(args) > 0 {
		ctx = context.Background()
	}
	_, err := env.Client.GetItem(ctx, req()) // want `has no deadline`
	return err
}

var _ command = getCmd{}
