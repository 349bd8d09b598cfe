// Package runner runs callbacks for other packages: which parameter it runs, and with which
// of its ctx parameters, travels as a fact.
package runner

import (
	"context"
	"time"
)

// Each runs fn for every id with the ctx it is given.
func Each(ctx context.Context, ids []string, fn func(context.Context, string) error) error {
	for _, id := range ids {
		if err := fn(ctx, id); err != nil {
			return err
		}
	}
	return nil
}

// Do retries fn with the ctx it is given.
func Do[T any](ctx context.Context, attempts int, fn func(context.Context) (T, error)) (T, error) {
	var zero T
	for i := 0; i < attempts; i++ {
		if v, err := fn(ctx); err == nil {
			return v, nil
		}
	}
	return zero, nil
}

// Within runs fn with a deadline of its own on the ctx it is given.
func Within(ctx context.Context, d time.Duration, fn func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	return fn(ctx)
}

// Later keeps fn for later.
func Later(ctx context.Context, fn func(context.Context) error) { pending = append(pending, fn) }

var pending []func(context.Context) error
