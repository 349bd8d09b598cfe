// Package audit writes audit rows; its helpers take the ctx they are given.
package audit

import (
	"context"
	"time"
)

// Writer stores one row.
type Writer interface {
	Write(ctx context.Context, row string) error
}

// WriteBounded gives the work a budget of its own.
func WriteBounded(ctx context.Context, w Writer, row string) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	return w.Write(ctx, row)
}

// WriteNow hands the ctx on as it is.
func WriteNow(ctx context.Context, w Writer, row string) error { // want WriteNow:"unbounded work with param 0"
	return w.Write(ctx, row)
}
