// Package c needs nothing missing: it is analysed and reported.
package c

import "context"

// Handle drops its ctx.
//
//deadlinelint:scope
func Handle(ctx context.Context) error { return work(context.Background()) }

func work(ctx context.Context) error { return ctx.Err() }
