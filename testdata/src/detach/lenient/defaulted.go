package lenient

import (
	"context"
	"time"
)

// defaultWrite gives the ctx it is given a default deadline when it has none, the inline form
// of a default-deadline interceptor: a detached ctx, which has none, is bounded there.
func (l *Ledger) defaultWrite(ctx context.Context, entry string) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
	}
	_ = l.j.Write(ctx, entry)
}

// retryWrite bounds only its retries: a first write with no deadline of its own, whatever the
// ctx it is given has.
func (l *Ledger) retryWrite(ctx context.Context, entry string, retry bool) { // want retryWrite:"unbounded work"
	if retry {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
	}
	_ = l.j.Write(ctx, entry)
}

// DefaultedWrite hands its detached ctx to the wrapper with the default: bounded there.
func (l *Ledger) DefaultedWrite(ctx context.Context, entry string) {
	go l.defaultWrite(context.WithoutCancel(ctx), entry)
}

// RetriedWrite hands it to the one that bounds only its retries: unbounded on the first try.
func (l *Ledger) RetriedWrite(ctx context.Context, entry string) { // want +1 `context.WithoutCancel\(ctx\) runs work with no deadline and no reason`
	go l.retryWrite(context.WithoutCancel(ctx), entry, false)
}
