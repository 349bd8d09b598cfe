// Package fine is clean: it is still analysed when its sibling is broken.
package fine

import "context"

// Handle is a request scope that loses its deadline.
//
//deadlinelint:scope
func Handle(ctx context.Context) context.Context {
	return context.Background()
}
