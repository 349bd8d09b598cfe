package server

import (
	"context"
	"errors"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/ledger/gen/ledgerpb"
	"example.test/ledger/internal/grpcerr"
	"example.test/ledger/internal/statement"
)

// ExportStatement validates the request and queues a statement for
// asynchronous rendering. The partner is notified by webhook when it is
// ready.
func (s *Ledger) ExportStatement(ctx context.Context, req *ledgerpb.ExportStatementRequest) (*ledgerpb.ExportStatementResponse, error) {
	if req.GetMonth() < 1 || req.GetMonth() > 12 || req.GetYear() < 2000 {
		return nil, status.Error(codes.InvalidArgument, "invalid month/year")
	}

	s.slots <- struct{}{}
	defer func() { <-s.slots }()

	job, err := s.gen.Prepare(req.GetAccountId(), time.Month(req.GetMonth()), int(req.GetYear())) // BUG: ctxbackground — B2: Prepare reaches header's context.Background() two calls down
	if err != nil {
		return nil, grpcerr.From(err)
	}
	if err := s.exports.Enqueue(ctx, job); err != nil {
		if errors.Is(err, statement.ErrQueueClosed) {
			return nil, status.Error(codes.Unavailable, "shutting down")
		}
		return nil, grpcerr.From(err)
	}
	return &ledgerpb.ExportStatementResponse{StatementId: job.ID}, nil
}
