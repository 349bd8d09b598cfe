// Package acme is a third-party module, replaced by a local directory that is neither a
// module cache nor a vendor directory: still code the user does not own.
package acme

import "context"

// Client sends messages.
type Client struct{}

// Send delivers a message within ctx. Its body is library code: what it does with the ctx
// is the library's business, and it counts as work.
func (c *Client) Send(ctx context.Context, msg string) error {
	_ = msg
	return ctx.Err()
}

// Flush uses a root context of its own: not followed into, it is no finding of the user's.
func (c *Client) Flush() error {
	return c.Send(context.Background(), "flush")
}
