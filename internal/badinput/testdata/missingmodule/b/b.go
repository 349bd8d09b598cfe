// Package b imports a: it cannot be analysed either.
package b

import (
	"context"

	"example.com/missingmodule/a"
)

// Handle counts.
func Handle(ctx context.Context) { a.Count(ctx) }
