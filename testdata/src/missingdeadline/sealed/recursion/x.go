package recursion

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

type lsCmd struct{}

func (lsCmd) Name() string { return "ls" }

// a recursive command: its own caller.
func (c lsCmd) Do(args []string, env *Env, w io.Writer) error {
	_, err := env.Client.GetItem(context.Background(), req()) // meant to be silenced
	if len(args) > 1 {
		return c.Do(args[1:], env, w)
	}
	return err
}

var _ command = lsCmd{}

func walk(env *Env, ids []string) error {
	_, err := env.Client.GetItem(context.Background(), req()) // meant to be silenced
	if len(ids) > 1 {
		return walk(env, ids[1:])
	}
	return err
}

type treeCmd struct{}

func (treeCmd) Name() string                                  { return "tree" }
func (treeCmd) Do(args []string, env *Env, w io.Writer) error { return walk(env, args) }

var _ command = treeCmd{}
