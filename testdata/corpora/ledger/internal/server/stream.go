package server

import (
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/ledger/gen/ledgerpb"
	"example.test/ledger/internal/grpcerr"
)

const maxPageSize = 10_000

// ListPostings streams an account's postings.
func (s *Ledger) ListPostings(req *ledgerpb.ListPostingsRequest, stream grpc.ServerStreamingServer[ledgerpb.Posting]) error {
	ctx := stream.Context()
	if req.GetAccountId() == "" {
		return status.Error(codes.InvalidArgument, "account_id is required")
	}
	limit := int(req.GetPageSize())
	if limit <= 0 || limit > maxPageSize {
		limit = maxPageSize
	}
	n := 0
	for p, err := range s.store.Postings(ctx, req.GetAccountId(), req.GetSinceUnix(), limit) {
		if err != nil {
			return grpcerr.From(err)
		}
		if n%100 == 0 {
			if err := ctx.Err(); err != nil {
				return status.Errorf(codes.Internal, "list postings aborted: %v", err) // BUG: statusmask — B3a: the stream ctx's own error made Internal
			}
		}
		n++
		if err := stream.Send(&ledgerpb.Posting{AccountId: p.AccountID, AmountMinor: p.Amount, Currency: p.Currency}); err != nil {
			return err
		}
	}
	return nil
}
