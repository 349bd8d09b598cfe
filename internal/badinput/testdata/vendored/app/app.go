// Package app builds with -mod=vendor (the default when vendor/ exists).
package app

import (
	"context"

	"example.com/tiny"
)

// Handle is a request scope that loses its deadline.
//
//deadlinelint:scope
func Handle(ctx context.Context) context.Context {
	_ = tiny.Root
	return context.Background()
}
