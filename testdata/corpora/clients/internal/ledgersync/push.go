package ledgersync

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	ledgerv1 "example.test/clients/gen/ledger/v1"
)

func (s *Server) PushEntries(stream ledgerv1.LedgerSync_PushEntriesServer) error {
	ctx := stream.Context()
	var sum ledgerv1.PushSummary
	const insert = `INSERT INTO ledger_entries (entry_id, account_id, amount_cents, source)
		VALUES ($1, $2, $3, $4) ON CONFLICT (entry_id) DO NOTHING`
	for {
		e, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		res, err := s.db.ExecContext(ctx, insert, e.GetEntryId(), e.GetAccountId(), e.GetAmountCents(), e.GetSource()) // OK
		if isSerializationFailure(err) {
			time.Sleep(50 * time.Millisecond)                                                                             // BUG: ctxless
			res, err = s.db.ExecContext(ctx, insert, e.GetEntryId(), e.GetAccountId(), e.GetAmountCents(), e.GetSource()) // OK
		}
		if err != nil {
			return status.Errorf(codes.Internal, "entry %s: %v", e.GetEntryId(), err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			sum.Duplicates++
		} else {
			sum.Accepted++
		}
	}

	// The summary row is what the billing close-out reads; it must be written
	// even if the client hangs up right after its last entry.
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second) // OK
	defer cancel()
	if _, err := s.db.ExecContext(actx, `INSERT INTO push_summaries (accepted, duplicates, created_at) VALUES ($1, $2, now())`, sum.Accepted, sum.Duplicates); err != nil { // OK
		s.log.Warn("push summary not recorded", "err", err)
	}

	if sum.Accepted > 0 {
		go s.announce(context.WithoutCancel(ctx), &sum)
		// ^BUG: detach
	}
	return stream.SendAndClose(&sum)
}

// announce tells the reporting pipeline that new ledger entries landed.
func (s *Server) announce(ctx context.Context, sum *ledgerv1.PushSummary) {
	payload, _ := json.Marshal(map[string]int32{"accepted": sum.GetAccepted(), "duplicates": sum.GetDuplicates()})
	if _, err := s.sdk.EnqueueJob(ctx, "ledger-push", payload); err != nil {
		s.log.Warn("push not announced", "err", err)
	}
}

func isSerializationFailure(err error) bool {
	return err != nil && strings.Contains(err.Error(), "SQLSTATE 40001")
}
