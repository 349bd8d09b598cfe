package server

import (
	"context"
	"sync"
	"time"
)

// lazy holds a value loaded once, on first use, and kept for the life of the
// server. The load gets a budget of its own: a value shared by every later
// request must not fail because the first caller was in a hurry.
type lazy[T any] struct {
	once sync.Once
	load func(ctx context.Context) (T, error)
	v    T
	err  error
}

func newLazy[T any](load func(ctx context.Context) (T, error)) *lazy[T] {
	return &lazy[T]{load: load}
}

func (l *lazy[T]) Get() (T, error) {
	l.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		l.v, l.err = l.load(ctx)
	})
	return l.v, l.err
}

// loadNamespaces reads the namespace table.
func (s *Server) loadNamespaces(ctx context.Context) (map[string]bool, error) {
	rows, err := s.store.DB().QueryContext(ctx, `SELECT name FROM namespaces`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out[n] = true
	}
	return out, rows.Err()
}
