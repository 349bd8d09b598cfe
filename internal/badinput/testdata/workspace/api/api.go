// Package api imports lib through the workspace, not through a download.
package api

import (
	"context"

	"example.com/lib"
)

// Handle is a request scope that loses its deadline.
//
//deadlinelint:scope
func Handle(ctx context.Context) context.Context {
	_ = lib.Detached
	return context.Background()
}
