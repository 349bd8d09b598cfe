// Package fanout runs a function over a list of keys.
package fanout

import (
	"context"
	"fmt"
	"log"
)

// Each calls fn for every key, in order, with ctx, and stops at the first error.
func Each(ctx context.Context, keys []string, fn func(context.Context, string) error) error {
	for _, k := range keys {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := fn(ctx, k); err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
	}
	return nil
}

// Collect calls fn for every key and returns the keys it failed for, instead of stopping.
func Collect(ctx context.Context, keys []string, fn func(context.Context, string) error) []string {
	var failed []string
	for _, k := range keys {
		if err := fn(ctx, k); err != nil {
			log.Printf("fanout: %s: %v", k, err)
			failed = append(failed, k)
		}
	}
	return failed
}

// Go runs fn on its own goroutine and logs a panic instead of crashing the process.
func Go(name string, fn func()) {
	go func() {
		defer func() {
			if r := recover(); r != nil {
				log.Printf("fanout: %s panicked: %v", name, r)
			}
		}()
		fn()
	}()
}
