// Package batch runs a per-item function over lists of ids.
package batch

import (
	"context"
	"fmt"
)

// Each runs fn for every id in order, stopping at the first error.
func Each(ctx context.Context, ids []string, fn func(context.Context, string) error) error {
	for _, id := range ids {
		if err := fn(ctx, id); err != nil {
			return fmt.Errorf("%s: %w", id, err)
		}
	}
	return nil
}

// Chunked runs fn over ids in groups of size, so that a caller can bound the
// work done between two progress reports.
func Chunked(ctx context.Context, ids []string, size int, fn func(context.Context, string) error) error {
	if size <= 0 {
		size = len(ids)
	}
	for start := 0; start < len(ids); start += size {
		end := min(start+size, len(ids))
		if err := runChunk(ctx, ids[start:end], fn); err != nil {
			return err
		}
	}
	return nil
}

func runChunk(ctx context.Context, chunk []string, fn func(context.Context, string) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return Each(ctx, chunk, fn)
}
