// Package store is a hand-written client of a key-value service, over a protocol
// missingdeadline does not know: its calls are client calls only when
// -missingdeadline.clientapis lists them.
package store

import "context"

// Client talks to the key-value service.
type Client struct {
	do func(ctx context.Context, key string) (string, error)
}

// Get fetches one key.
func (c *Client) Get(ctx context.Context, key string) (string, error) { return c.do(ctx, key) }

// Lookup fetches one key with the default client.
func Lookup(ctx context.Context, key string) (string, error) { return "", ctx.Err() }

// Getter is what callers depend on.
type Getter interface {
	Get(ctx context.Context, key string) (string, error)
}

// Typed decodes the values it fetches.
type Typed[T any] struct{ c *Client }

// Load fetches and decodes one key.
func (t *Typed[T]) Load(ctx context.Context, key string) (T, error) {
	var zero T
	_, err := t.c.Get(ctx, key)
	return zero, err
}
