package transitive

import (
	"context"
	"example.com/gen/catalogpb"
	"io"
	"net/http"
	"os"
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

// ServeShell runs a command on behalf of an HTTP request: its deadline is lost in run.
func ServeShell(cmds []command, env *Env) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		_ = run(cmds, env, []string{r.URL.Path})
	}
}
