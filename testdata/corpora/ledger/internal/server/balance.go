package server

import (
	"context"
	"errors"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/ledger/gen/ledgerpb"
	"example.test/ledger/internal/store"
)

// GetBalance returns an account's balance, served from a short-lived cache.
func (s *Ledger) GetBalance(ctx context.Context, req *ledgerpb.GetBalanceRequest) (*ledgerpb.GetBalanceResponse, error) {
	if req.GetAccountId() == "" {
		return nil, status.Error(codes.InvalidArgument, "account_id is required")
	}
	bal, cur, err := s.cache.Get(ctx, req.GetAccountId())
	if err != nil {
		return nil, toStatus(err)
	}
	return &ledgerpb.GetBalanceResponse{AccountId: req.GetAccountId(), BalanceMinor: bal, Currency: cur}, nil
}

func toStatus(err error) error {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return status.Error(codes.NotFound, "account not found")
	default:
		return status.Errorf(codes.Internal, "get balance: %v", err) // BUG: statusmask — B3b: a cancelled cache load made Internal through toStatus
	}
}
