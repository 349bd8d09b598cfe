// Package lenient is the detach rule without -detach.strict: a WithoutCancel is reported only
// when it detaches from a request and its work has neither a bound nor a reason. A ledger
// service shape: journal writes that must survive the caller, a cleanup helper, a test helper
// (lenient_test.go); Serve is the request scope that reaches them all.
package lenient

import (
	"context"
	"time"
)

type journal interface {
	Write(ctx context.Context, entry string) error
}

// Ledger records postings.
type Ledger struct {
	j journal
}

func (l *Ledger) write(ctx context.Context, entry string) { // want write:"unbounded work"
	_ = l.j.Write(ctx, entry)
}

// Neither has no bound and no reason: the one case reported.
func (l *Ledger) Neither(ctx context.Context, entry string) { // want +1 `context.WithoutCancel\(ctx\) runs work with no deadline and no reason`
	l.write(context.WithoutCancel(ctx), entry)
}

// BoundOnly has a budget of its own and no comment: a decision, not reported.
func (l *Ledger) BoundOnly(ctx context.Context, entry string) {
	bctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	l.write(bctx, entry)
}

// ReasonOnly says why and runs unbounded: a decision, not reported.
func (l *Ledger) ReasonOnly(ctx context.Context, entry string) {
	// the posting must land even if the client hangs up mid-transfer
	l.write(context.WithoutCancel(ctx), entry)
}

// ReasonAboveGo explains the goroutine that runs the detached work.
func (l *Ledger) ReasonAboveGo(ctx context.Context, entry string) {
	// replicate to the standby after the response: the caller does not wait for it
	go func() {
		l.write(context.WithoutCancel(ctx), entry)
	}()
}

// ReasonAboveBlock explains the branch.
func (l *Ledger) ReasonAboveBlock(ctx context.Context, entry string, failed bool) {
	// a failed transfer is reversed whatever the caller does next
	if failed {
		l.write(context.WithoutCancel(ctx), "reverse "+entry)
	}
}

// TodoIsNoReason: a note of unfinished work says nobody decided.
func (l *Ledger) TodoIsNoReason(ctx context.Context, entry string) { // want +2 `context.WithoutCancel\(ctx\) runs work with no deadline and no reason`
	// TODO: decide whether this should outlive the request
	l.write(context.WithoutCancel(ctx), entry)
}

// FixmeIsNoReason: the same for FIXME.
func (l *Ledger) FixmeIsNoReason(ctx context.Context, entry string) {
	l.write(context.WithoutCancel(ctx), entry) // FIXME: unbounded // want `context.WithoutCancel\(ctx\) runs work with no deadline and no reason`
}

// Posting describes one posting of the ledger. Its doc comment is about the function, not
// about the detach inside it.
func (l *Ledger) Posting(ctx context.Context, entry string) { // want +1 `context.WithoutCancel\(ctx\) runs work with no deadline and no reason`
	l.write(context.WithoutCancel(ctx), entry)
}

// Survive returns a ctx that survives the request so that journal writes complete after the
// caller has gone: a documented helper whose job is the detach is the reason for its callers.
func Survive(ctx context.Context) context.Context {
	return context.WithoutCancel(ctx)
}

// UsesSurvive runs unbounded work with the helper's ctx: the helper's doc is the reason.
func (l *Ledger) UsesSurvive(ctx context.Context, entry string) {
	l.write(Survive(ctx), entry)
}

// Undocumented's helper has no doc comment.
func (l *Ledger) Undocumented(ctx context.Context, entry string) {
	l.write(survive(ctx), entry)
}

func survive(ctx context.Context) context.Context { // want +1 `context.WithoutCancel\(ctx\) runs work with no deadline and no reason`
	return context.WithoutCancel(ctx)
}

// Cleanup runs fn with a ctx that outlives the caller's cancellation, for cleanup after a
// failure.
func Cleanup(ctx context.Context, fn func(context.Context)) {
	fn(context.WithoutCancel(ctx))
}

// literalStored: a literal stored for later is not explained by the comment above its
// creation.
func (l *Ledger) literalStored(ctx context.Context) func() {
	// flush the journal
	return func() { // want +1 `context.WithoutCancel\(ctx\) runs work with no deadline and no reason`
		l.write(context.WithoutCancel(ctx), "flush")
	}
}

// Serve is a request scope: it hands its request ctx to every method above.
//
//deadlinelint:scope
func Serve(ctx context.Context, l *Ledger) {
	l.Neither(ctx, "e")
	l.BoundOnly(ctx, "e")
	l.ReasonOnly(ctx, "e")
	l.ReasonAboveGo(ctx, "e")
	l.ReasonAboveBlock(ctx, "e", true)
	l.TodoIsNoReason(ctx, "e")
	l.FixmeIsNoReason(ctx, "e")
	l.Posting(ctx, "e")
	l.UsesSurvive(ctx, "e")
	l.Undocumented(ctx, "e")
	Cleanup(ctx, func(context.Context) {})
	l.literalStored(ctx)()
	l.DefaultedWrite(ctx, "e")
	l.RetriedWrite(ctx, "e")
	l.Paragraph(ctx, "e")
	l.Unexplained(ctx, "e")
}

// Lifecycle detaches from no request: its ctx is the ledger's own lifetime, handed in by main.
// Without -detach.strict it is not reported, however unbounded.
func (l *Ledger) Lifecycle(ctx context.Context) {
	go l.write(context.WithoutCancel(ctx), "replay")
}

// Replay detaches from no request either, and says why with a directive: the directive applies
// to the call (it is not reported as stray), though the call is not reported.
func (l *Ledger) Replay(ctx context.Context) {
	//deadlinelint:detach replays run to the end whatever stops the ledger
	go l.write(context.WithoutCancel(ctx), "replay")
}
