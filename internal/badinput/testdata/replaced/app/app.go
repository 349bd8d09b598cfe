// Package app calls a replaced third-party module.
package app

import (
	"context"

	"example.com/acme"
)

// Ack acknowledges a message after the caller has gone.
//
//deadlinelint:scope
func Ack(ctx context.Context, c *acme.Client) {
	_ = c.Flush() // the library's own root: not the user's finding
	go c.Send(context.WithoutCancel(ctx), "ack")
}
