package repodb

import (
	"context"
	"net/http"
)

// Cleaner removes an item's leftovers; its one implementation does so with a root of its own.
// The package ships a generated mock of it beside it (cleaner_mock.go), as mockgen's
// source mode writes.
type Cleaner interface {
	Clean(ctx context.Context, id string) error
}

// Pruner is the same shape with no mock.
type Pruner interface {
	Prune(ctx context.Context, id string) error
}

// NewCleaner returns the cleaner.
func NewCleaner(c *http.Client, url string) Cleaner { return remover{c: c, url: url} }

// NewPruner returns the pruner.
func NewPruner(c *http.Client, url string) Pruner { return remover{c: c, url: url} }

type remover struct {
	c   *http.Client
	url string
}

func (r remover) Clean(ctx context.Context, id string) error { return r.remove(id) }

func (r remover) Prune(ctx context.Context, id string) error { return r.remove(id) }

// remove deletes with a root: the caller's ctx is lost here.
func (r remover) remove(id string) error {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodDelete, r.url+"/"+id, nil)
	if err != nil {
		return err
	}
	resp, err := r.c.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
