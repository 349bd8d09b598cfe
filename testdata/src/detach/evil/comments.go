package evil

import (
	"context"
	"time"
)

// job carries a detached ctx to a worker.
type job struct {
	ctx context.Context
	rec string
}

// TwoLinesAbove: a blank line separates the comment from the statement.
func (s *Service) TwoLinesAbove(ctx context.Context) { // want +3 `context.WithoutCancel\(ctx\) has no comment saying why`
	// the audit row must be written even if the client gives up

	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	_ = s.log.Append(actx, "two lines")
}

// TrailingAbove: the comment on the line above trails other code and explains that code.
func (s *Service) TrailingAbove(ctx context.Context) {
	rec := "trailing" // the record name is fixed // want +1 `context.WithoutCancel\(ctx\) has no comment saying why`
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	_ = s.log.Append(actx, rec)
}

// MultiLineStatement: the comment sits above the first line of a statement spanning lines.
func (s *Service) MultiLineStatement(ctx context.Context) {
	// the audit row must be written even if the client gives up
	actx, cancel := context.WithTimeout(
		context.WithoutCancel(ctx),
		time.Second,
	)
	defer cancel()
	_ = s.log.Append(actx, "multi-line")
}

// MultiLineNoComment: a comment on a later line of the statement, not the call's, does not count.
func (s *Service) MultiLineNoComment(ctx context.Context) { // want +2 `context.WithoutCancel\(ctx\) has no comment saying why`
	actx, cancel := context.WithTimeout(
		context.WithoutCancel(ctx),
		time.Second, // one second is plenty
	)
	defer cancel()
	_ = s.log.Append(actx, "multi-line")
}

// InsideLiteral: the comment sits on its own line directly above the field it explains.
func (s *Service) InsideLiteral(ctx context.Context) job {
	return job{
		// the worker finishes the record even if the client gives up
		ctx: context.WithoutCancel(ctx),
		rec: "literal",
	}
}

// IfInit: the comment above an if explains the call in its init statement.
func (s *Service) IfInit(ctx context.Context) error {
	// the reversal must complete even if the client gives up
	if err := s.appendBounded(context.WithoutCancel(ctx), "if"); err != nil {
		return err
	}
	return nil
}

// BlockComment: a /* */ comment is a comment.
func (s *Service) BlockComment(ctx context.Context) error {
	/* the audit row must be written even if the client gives up */
	return s.appendBounded(context.WithoutCancel(ctx), "block")
}

// EmptyComment: a bare // says nothing.
func (s *Service) EmptyComment(ctx context.Context) error { // want +2 `context.WithoutCancel\(ctx\) has no comment saying why`
	//
	return s.appendBounded(context.WithoutCancel(ctx), "empty")
}

// CommentInClosure: the statement is the closure's; the comment above it counts.
func (s *Service) CommentInClosure(ctx context.Context) func() error {
	return func() error {
		// the audit row must be written even if the client gives up
		return s.appendBounded(context.WithoutCancel(ctx), "closure")
	}
}

// CommentAboveClosure: a comment above the statement that creates the closure is not above
// the statement that detaches.
func (s *Service) CommentAboveClosure(ctx context.Context) func() error {
	// returns the audit writer
	return func() error { // want +1 `context.WithoutCancel\(ctx\) has no comment saying why`
		return s.appendBounded(context.WithoutCancel(ctx), "closure")
	}
}

// CapturedReassigned: the detached ctx is re-assigned with a timeout, and only then captured.
func (s *Service) CapturedReassigned(ctx context.Context) {
	// the audit row must be written even if the client gives up
	actx := context.WithoutCancel(ctx)
	actx, cancel := context.WithTimeout(actx, time.Second)
	go func() {
		defer cancel()
		_ = s.log.Append(actx, "captured")
	}()
}

// detachedAudit is a package-level detached ctx, explained.
var detachedAudit = context.WithoutCancel(context.Background()) // package-level work is never cancelled anyway

var auditTimeout = time.Second // want +1 `context.WithoutCancel\(context.Background\(\)\) has no comment`
var unexplainedAudit = context.WithoutCancel(context.Background())
