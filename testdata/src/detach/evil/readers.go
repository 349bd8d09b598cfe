package evil

import (
	"context"
	"log/slog"
	"time"

	"google.golang.org/grpc/metadata"
)

// logDetach logs with the ctx it is given: a read, not work.
func logDetach(ctx context.Context, logger *slog.Logger) {
	logger.InfoContext(ctx, "detaching the audit write")
}

// ReadersAreNotWork: logging and reading metadata with the detached ctx start nothing that
// could outlive the request; the only work is bounded.
func (s *Service) ReadersAreNotWork(ctx context.Context, logger *slog.Logger) error {
	// the audit row must be written even if the client gives up
	dctx := context.WithoutCancel(ctx)
	slog.InfoContext(dctx, "detached")
	logDetach(dctx, logger)
	md, _ := metadata.FromIncomingContext(dctx)
	actx, cancel := context.WithTimeout(dctx, time.Second)
	defer cancel()
	return s.log.Append(actx, md.Get("actor")[0])
}

// ReaderAndWork: a read beside unbounded work is still reported, for the work.
func (s *Service) ReaderAndWork(ctx context.Context) error { // want +2 `runs work with no deadline of its own; bound it`
	// the audit row must be written even if the client gives up
	dctx := context.WithoutCancel(ctx)
	slog.InfoContext(dctx, "detached")
	return s.log.Append(dctx, "work")
}
