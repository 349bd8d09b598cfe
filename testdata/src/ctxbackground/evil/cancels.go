package evil

import (
	"context"
	"time"
)

type guard struct{ cancel context.CancelFunc }

// guarded keeps its cancel function in a local struct it only calls it through as it returns:
// no object keeps it, and the fresh root is the helper's own.
func (s *Server) guarded(id string) { // want guarded:"drops ctx"
	c, cancel := context.WithTimeout(context.Background(), time.Second)
	g := guard{cancel: cancel}
	defer g.cancel()
	_, _ = load(c, id)
}

// kept hands the struct holding its cancel function to its caller: the object's lifetime.
func (s *Server) kept(id string) *guard {
	c, cancel := context.WithCancel(context.Background())
	g := &guard{cancel: cancel}
	_, _ = load(c, id)
	return g
}

// swapped trades two captured cancel functions, and again in a loop: the variables' cells hand
// their values to each other. Nothing keeps either.
func (s *Server) swapped(id string) { // want swapped:"drops ctx"
	c, cancel := context.WithTimeout(context.Background(), time.Second)
	cur, next := cancel, func() {}
	cur, next = next, cur
	for range 3 {
		cur, next = next, cur
	}
	defer func() { cur(); next() }()
	_, _ = load(c, id)
}

// watcher returns the struct that keeps its root's cancel, and cancels it itself in a deferred
// literal when the first load fails: go/ssa keeps the captured cancel in a cell, and the store
// into the struct is a load of it. The object's lifetime either way.
func (s *Server) watcher(id string) (*guard, error) {
	c, cancel := context.WithCancel(context.Background())
	var err error
	defer func() {
		if err != nil {
			cancel()
		}
	}()
	if _, err = load(c, id); err != nil {
		return nil, err
	}
	return &guard{cancel: cancel}, nil
}

type holder struct{ stop context.CancelFunc }

var keeper = &holder{}

// copied copies its root's cancel out of a local struct into a package-level holder: kept.
func (s *Server) copied(id string) {
	c, cancel := context.WithCancel(context.Background())
	g := guard{cancel: cancel}
	keeper.stop = g.cancel
	_, _ = load(c, id)
}
