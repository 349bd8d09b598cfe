// Package a imports a package of a module whose required version no proxy serves.
package a

import (
	"context"
	"sync"

	"example.com/vanished/meter"
)

var mu sync.Mutex

// Count records one request.
func Count(ctx context.Context) { meter.Add(ctx, 1) }
