package lazyinit

import (
	"context"
	"errors"
	"sync"
)

// flight runs one load at a time: its task is made on first use and reset when the load is
// done, and the load runs on every call, after the check — not initialisation of anything.
type flight struct {
	mu      sync.Mutex
	pending *task
	inner   *db
}

type task struct{ done chan struct{} }

func (f *flight) Do(ctx context.Context) (string, error) {
	f.mu.Lock()
	if f.pending == nil {
		f.pending = &task{done: make(chan struct{})}
	}
	f.mu.Unlock()
	id, err := f.inner.query(ctx)
	f.mu.Lock()
	f.pending = nil
	f.mu.Unlock()
	return id, err
}

// member asks the flight with a root: its load runs every call.
func member(f *flight, token string) error { // want member:"drops ctx"
	id, err := f.Do(context.Background())
	if err != nil {
		return err
	}
	if id != token {
		return errors.New("not a member")
	}
	return nil
}
