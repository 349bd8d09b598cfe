package base

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
	_, err := env.Client.GetItem(context.Background(), req()) // sealed: not reported
	return err
}

var _ command = getCmd{}
