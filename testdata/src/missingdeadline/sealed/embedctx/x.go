package embedctx

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

type Base struct{ Ctx context.Context }

type Env2 struct {
	*Base
	Client catalogpb.CatalogClient
}

type command2 interface {
	Do(args []string, env *Env2) error
}

func run2(cs []command2, env *Env2) { _ = cs[0].Do(nil, env) }

type getCmd struct{}

// env.Ctx is in sight (promoted from Base), and Do drops it.
func (getCmd) Do(args []string, env *Env2) error {
	_, err := env.Client.GetItem(context.Background(), req()) // want `has no deadline`
	return err
}

var (
	_ command2 = getCmd{}
	_          = run2
)
