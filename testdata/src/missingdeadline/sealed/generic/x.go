package generic

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

// a generic command type: its Do is still sealed.
type getCmd[T any] struct{ v T }

func (*getCmd[T]) Name() string { return "get" }

func (c *getCmd[T]) Do(args []string, env *Env, w io.Writer) error {
	_, _ = env.Client.GetItem(context.Background(), req()) // meant to be silenced
	return lookup[T](env, c.v)
}

// a generic helper only commands call.
func lookup[T any](env *Env, v T) error {
	_, err := env.Client.GetItem(context.Background(), req()) // meant to be silenced
	return err
}

var _ command = &getCmd[int]{}
