package closer

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

// session is handed out as an io.Closer: its Close is called out of sight.
type session struct{ c catalogpb.CatalogClient }

func (s *session) Close() error {
	_, err := s.c.GetItem(context.Background(), req()) // want `has no deadline`
	return err
}

func Open(c catalogpb.CatalogClient) io.Closer { return &session{c} }

// fetch closes a response body: a ctx-less invoke of some Close.
func fetch(url string) error {
	resp, err := http.Get(url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

var _ = fetch
