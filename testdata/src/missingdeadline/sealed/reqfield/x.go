package reqfield

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

type Env2 struct {
	Req    *http.Request
	Client catalogpb.CatalogClient
}

type route interface {
	Serve(env *Env2) error
}

func dispatch(rs []route, env *Env2) { _ = rs[0].Serve(env) }

type getRoute struct{}

// env.Req.Context() is in sight, and Serve drops it.
func (getRoute) Serve(env *Env2) error {
	_, err := env.Client.GetItem(context.Background(), req()) // want `has no deadline`
	return err
}

var (
	_ route = getRoute{}
	_       = dispatch
)
