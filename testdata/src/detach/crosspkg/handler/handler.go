// Package handler detaches work that helpers of another package bound, or do not.
package handler

import (
	"context"

	"detach/crosspkg/audit"
)

func Handle(ctx context.Context, w audit.Writer) {
	// the row must survive the request; WriteBounded gives it two seconds
	_ = audit.WriteBounded(context.WithoutCancel(ctx), w, "bounded over there")
	// the row must survive the request
	_ = audit.WriteNow(context.WithoutCancel(ctx), w, "unbounded over there") // want `runs work with no deadline`
}
