package aliasiface

import (
	"context"
	"io"
	"os"

	"example.com/gen/catalogpb"
)

type Env struct{ Client catalogpb.CatalogClient }

// the shell's interface is an alias of an interface literal.
type command = interface {
	Exec(args []string, env *Env, w io.Writer) error
}

func run(cs []command, env *Env) { _ = cs[0].Exec(nil, env, os.Stdout) }

type getCmd struct{}

func (getCmd) Exec(args []string, env *Env, w io.Writer) error {
	_, err := env.Client.GetItem(context.Background(), &catalogpb.GetItemRequest{}) // meant to be silenced
	return err
}

var (
	_         = run
	_ command = getCmd{}
)
