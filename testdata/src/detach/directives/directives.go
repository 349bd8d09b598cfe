// Package directives exercises //deadlinelint:detach and //deadlinelint:ignore detach on a
// payments service whose compensating writes must finish after the caller leaves.
package directives

import (
	"context"
	"time"
)

type ledger interface {
	Reverse(ctx context.Context, txID string) error
}

// Payments reverses transactions.
type Payments struct{ ledger ledger }

// DirectiveAndTimeout: a detach directive with a reason, and a budget.
func (p *Payments) DirectiveAndTimeout(ctx context.Context, txID string) error {
	//deadlinelint:detach a half-applied reversal leaves the ledger unbalanced
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	return p.ledger.Reverse(rctx, txID)
}

// TrailingDirective gives the reason at the end of the line.
func (p *Payments) TrailingDirective(ctx context.Context, txID string) error {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second) //deadlinelint:detach reversal must complete
	defer cancel()
	return p.ledger.Reverse(rctx, txID)
}

// EmptyDirective is bounded but its directive says nothing.
func (p *Payments) EmptyDirective(ctx context.Context, txID string) error { // want +2 `the //deadlinelint:detach of context.WithoutCancel\(ctx\) gives no reason; say why the work must outlive the request`
	//deadlinelint:detach
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	return p.ledger.Reverse(rctx, txID)
}

// EmptyDirectiveUnbounded misses both, and says so in one report.
func (p *Payments) EmptyDirectiveUnbounded(ctx context.Context, txID string) error { // want +2 `runs work with no deadline, and its //deadlinelint:detach gives no reason`
	//deadlinelint:detach
	return p.ledger.Reverse(context.WithoutCancel(ctx), txID)
}

// EmptyDirectiveBesideComment: a comment does not excuse an empty directive.
func (p *Payments) EmptyDirectiveBesideComment(ctx context.Context, txID string) error { // want +3 `the //deadlinelint:detach of context.WithoutCancel\(ctx\) gives no reason`
	// the reversal must complete
	//deadlinelint:detach
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	return p.ledger.Reverse(rctx, txID)
}

// Ignored suppresses the finding, with a reason.
func (p *Payments) Ignored(ctx context.Context, txID string) error {
	//deadlinelint:ignore detach the ledger client enforces its own 5s budget per call
	return p.ledger.Reverse(context.WithoutCancel(ctx), txID)
}

// IgnoredNoReason: an ignore without a reason suppresses nothing and is reported itself.
func (p *Payments) IgnoredNoReason(ctx context.Context, txID string) error { // want +1 `//deadlinelint:ignore detach needs a reason` `runs work with no deadline and no reason`
	return p.ledger.Reverse(context.WithoutCancel(ctx), txID) //deadlinelint:ignore detach
}

// IgnoreIsNoReason: a suppression of another rule does not explain the detach.
func (p *Payments) IgnoreIsNoReason(ctx context.Context, txID string) error { // want +2 `context.WithoutCancel\(ctx\) has no comment saying why`
	//deadlinelint:ignore ctxflow the ledger ctx is the request's
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	return p.ledger.Reverse(rctx, txID)
}

// NolintIsNoReason: neither is a linter directive.
func (p *Payments) NolintIsNoReason(ctx context.Context, txID string) error { // want +1 `context.WithoutCancel\(ctx\) has no comment saying why`
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second) //nolint:deadlinelint
	defer cancel()
	return p.ledger.Reverse(rctx, txID)
}

// StrayDirective has a directive above code that does not detach.
func (p *Payments) StrayDirective(ctx context.Context, txID string) error { // want StrayDirective:"unbounded work"
	//deadlinelint:detach the reversal must complete // want `//deadlinelint:detach applies to no context.WithoutCancel call on this line or the next; remove it`
	return p.ledger.Reverse(ctx, txID)
}
