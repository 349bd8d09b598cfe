// Package ctxkey is a dependency's typed context key: Value calls ValueOk, a generic method
// calling another, and only reads the ctx's value. Wait waits for the ctx to end: work.
package ctxkey

import "context"

type stringer[T any] struct{ v T }

// Key is a typed key of a ctx value.
type Key[V any] struct {
	name   *stringer[string]
	defVal *V
}

// New returns a key with its default value.
func New[V any](name string, def V) Key[V] {
	return Key[V]{name: &stringer[string]{name}, defVal: &def}
}

func (k Key[V]) contextKey() any { return k.name }

// WithValue returns a ctx carrying v under k.
func (k Key[V]) WithValue(parent context.Context, v V) context.Context {
	return context.WithValue(parent, k.contextKey(), stringer[V]{v})
}

// ValueOk returns the value under k, and whether there is one.
func (k Key[V]) ValueOk(ctx context.Context) (V, bool) {
	vv, ok := ctx.Value(k.contextKey()).(stringer[V])
	if !ok && k.defVal != nil {
		vv.v = *k.defVal
	}
	return vv.v, ok
}

// Value returns the value under k, or its default.
func (k Key[V]) Value(ctx context.Context) V {
	v, _ := k.ValueOk(ctx)
	return v
}

// Wait waits until ctx is done and returns the value under k then.
func (k Key[V]) Wait(ctx context.Context) (V, error) { return k.wait(ctx) }

func (k Key[V]) wait(ctx context.Context) (V, error) {
	<-ctx.Done()
	v, _ := k.ValueOk(ctx)
	return v, ctx.Err()
}
