package base_embed

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

// base gives every command its Do; each command adds its Name.
type base struct{ id string }

// A promoted Do is not followed: reported.
func (b base) Do(args []string, env *Env, w io.Writer) error {
	_, err := env.Client.GetItem(context.Background(), req()) // want `has no deadline`
	return err
}

type getCmd struct{ base }

func (getCmd) Name() string { return "get" }

var _ command = getCmd{}
