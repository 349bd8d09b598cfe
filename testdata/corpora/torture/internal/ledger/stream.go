package ledger

import (
	"context"
	"errors"
	"io"
	"time"

	ledgerv1 "example.test/torture/gen/ledger/v1"
	"example.test/torture/internal/store"
)

func toProtoEntry(e store.Entry) *ledgerv1.Entry {
	return &ledgerv1.Entry{Id: e.ID, Account: e.Account, AmountCents: e.Amount, Memo: e.Memo, PostedUnix: e.Posted.Unix()}
}

// History streams an account's postings.
func (s *Server) History(req *ledgerv1.HistoryRequest, stream ledgerv1.LedgerService_HistoryServer) error {
	ctx := stream.Context()
	since := time.Unix(req.GetSinceUnix(), 0)
	sent := 0
	for e, err := range s.repo.Entries(ctx, req.GetAccount(), since) { // OK
		if err != nil {
			return toStatus(err)
		}
		if e.Memo == "" {
			if memo, err := s.memos.GetContext(context.Background(), e.ID); err == nil { // BUG: ctxbackground
				e.Memo = memo
			}
		}
		if err := stream.Send(toProtoEntry(e)); err != nil {
			return err
		}
		if sent++; sent%historyPage == 0 {
			time.Sleep(historyThrottle) // BUG: ctxless
		}
	}
	return nil
}

// StreamPosts accepts a stream of postings and answers each with its entry id.
func (s *Server) StreamPosts(stream ledgerv1.LedgerService_StreamPostsServer) error {
	ctx := stream.Context()
	var pctx context.Context = ctx
	finishOnOwn := func() {
		pctx = context.Background() // BUG: ctxbackground
	}
	for {
		req, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		entry := store.Entry{Account: req.GetAccount(), Amount: req.GetAmountCents(), Memo: req.GetMemo()}
		id, err := s.repo.PostEntry(pctx, entry, req.GetIdempotencyKey())
		if errors.Is(err, context.DeadlineExceeded) && pctx == ctx {
			finishOnOwn()
			id, err = s.repo.PostEntry(pctx, entry, req.GetIdempotencyKey())
		}
		if err != nil {
			return toStatus(err)
		}
		if err := stream.Send(&ledgerv1.PostResponse{EntryId: id}); err != nil {
			return err
		}
	}
}
