// Package basic holds the four combinations of the detach rule — a comment saying why, a
// deadline of its own — in an order-service shape: an audit writer, an event publisher and a
// compensating refund that must complete after the client gives up.
package basic

import (
	"context"
	"errors"
	"time"
)

type store interface {
	Exec(ctx context.Context, query string, args ...any) error
}

// Orders settles orders and records what happened.
type Orders struct {
	db     store
	events store
}

func (o *Orders) audit(ctx context.Context, id string) { // want audit:"unbounded work"
	_ = o.db.Exec(ctx, "INSERT INTO audit (order_id) VALUES ($1)", id)
}

// CommentAndTimeout is the idiom: a reason, and a budget of its own.
func (o *Orders) CommentAndTimeout(ctx context.Context, id string) {
	// the audit row must be written even if the client gives up
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	o.audit(actx, id)
}

// TrailingCommentAndDeadline gives the reason on the same line.
func (o *Orders) TrailingCommentAndDeadline(ctx context.Context, id string) {
	dctx := context.WithoutCancel(ctx) // a refund must not be half-done when the caller leaves
	rctx, cancel := context.WithDeadline(dctx, time.Now().Add(5*time.Second))
	defer cancel()
	_ = o.db.Exec(rctx, "UPDATE payments SET refunded = true WHERE order_id = $1", id)
}

// CommentOnly has a reason but no budget: the detached write can run forever.
func (o *Orders) CommentOnly(ctx context.Context, id string) { // want +2 `context.WithoutCancel\(ctx\) runs work with no deadline of its own; bound it with context.WithTimeout`
	// the event must be published even if the client gives up
	dctx := context.WithoutCancel(ctx)
	_ = o.events.Exec(dctx, "PUBLISH order.settled", id)
}

// TimeoutOnly is bounded but does not say why it must outlive the request.
func (o *Orders) TimeoutOnly(ctx context.Context, id string) { // want +1 `context.WithoutCancel\(ctx\) has no comment saying why the work must outlive the request; add one`
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	o.audit(actx, id)
}

// Neither is unbounded and unexplained.
func (o *Orders) Neither(ctx context.Context, id string) { // want +1 `context.WithoutCancel\(ctx\) runs work with no deadline and no reason; bound it with context.WithTimeout and say why`
	o.audit(context.WithoutCancel(ctx), id)
}

// DetachedGoroutine starts the unbounded work on a goroutine.
func (o *Orders) DetachedGoroutine(ctx context.Context, id string) { // want +1 `runs work with no deadline and no reason`
	go o.audit(context.WithoutCancel(ctx), id)
}

// DetachedClosure captures the detached ctx in a goroutine's closure.
func (o *Orders) DetachedClosure(ctx context.Context, id string) error {
	if id == "" {
		return errors.New("no id")
	}
	// publishing must survive the caller: consumers rely on every settled order
	dctx := context.WithoutCancel(ctx) // want `runs work with no deadline of its own; bound it`
	go func() {
		_ = o.events.Exec(dctx, "PUBLISH order.settled", id)
	}()
	return nil
}

// BoundedClosure captures a bounded detached ctx.
func (o *Orders) BoundedClosure(ctx context.Context, id string) {
	// publishing must survive the caller: consumers rely on every settled order
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second)
	go func() {
		defer cancel()
		_ = o.events.Exec(pctx, "PUBLISH order.settled", id)
	}()
}

// Unused detaches and drops the result: nothing runs detached, nothing to say.
func (o *Orders) Unused(ctx context.Context) {
	_ = context.WithoutCancel(ctx)
}
