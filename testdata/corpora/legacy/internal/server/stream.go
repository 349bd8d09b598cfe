package server

import (
	"context"
	"errors"
	"io"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	loyaltyv1 "example.test/legacy/gen/loyalty/v1"
	"example.test/legacy/internal/helpers"
)

// StreamTransactions follows a member's ledger (used by the kiosk screens).
func (s *Server) StreamTransactions(req *loyaltyv1.StreamTransactionsRequest, stream loyaltyv1.LoyaltyService_StreamTransactionsServer) error {
	ctx := stream.Context()
	id := strings.TrimSpace(req.GetMemberId())
	if id == "" {
		return status.Error(codes.InvalidArgument, "member_id is required")
	}
	since := time.Now().Add(-24 * time.Hour)
	if req.GetSince() != "" {
		t, err := time.Parse(time.RFC3339, req.GetSince())
		if err != nil {
			return status.Error(codes.InvalidArgument, "since must be RFC3339")
		}
		since = t
	}

	stmt, err := s.db.Prepare(`SELECT id, points, kind, coalesce(reference, ''), created_at FROM transactions WHERE member_id = $1 AND created_at > $2 ORDER BY created_at LIMIT 200`) // BUG: ctxless
	if err != nil {
		logger.Printf("StreamTransactions %s: prepare: %v", id, err)
		return status.Error(codes.Internal, "could not read transactions")
	}
	defer stmt.Close()

	idle := 0
	for {
		rows, err := stmt.QueryContext(ctx, id, since)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			logger.Printf("StreamTransactions %s: %v", id, err)
			return status.Error(codes.Internal, "could not read transactions")
		}
		n := 0
		for rows.Next() {
			var (
				t  loyaltyv1.Transaction
				at time.Time
			)
			if err := rows.Scan(&t.Id, &t.Points, &t.Kind, &t.Reference, &at); err != nil {
				rows.Close()
				return status.Error(codes.Internal, "could not read transactions")
			}
			t.MemberId = id
			t.CreatedAt = timestamppb.New(at)
			if err := stream.Send(&t); err != nil {
				rows.Close()
				return err
			}
			since = at
			n++
		}
		rows.Close()

		if n > 0 {
			idle = 0
			if _, err := s.db.ExecContext(s.ctx, `INSERT INTO stream_cursors (member_id, last_seen) VALUES ($1, $2) ON CONFLICT (member_id) DO UPDATE SET last_seen = excluded.last_seen`, id, since); err != nil { // BUG: ctxflow
				logger.Printf("StreamTransactions %s: cursor: %v", id, err)
			}
			continue
		}
		idle++
		if idle > 900 {
			return status.Error(codes.DeadlineExceeded, "idle for too long, reconnect")
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(2 * time.Second): // OK
		}
	}
}

// ImportPoints bulk-loads points from partner files (the partner gateway streams the rows).
func (s *Server) ImportPoints(stream loyaltyv1.LoyaltyService_ImportPointsServer) error {
	var imported, skipped int64
	seen := map[string]bool{}
	source := ""
	for {
		req, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if source == "" {
			source = req.GetSource()
		}
		ext := req.GetExternalId()
		if ext == "" || req.GetMemberId() == "" || req.GetPoints() == 0 || seen[ext] {
			skipped++
			continue
		}
		seen[ext] = true

		var exists bool
		err = s.db.QueryRowContext(context.Background(), `SELECT exists(SELECT 1 FROM transactions WHERE reference = $1 AND kind = 'import')`, ext).Scan(&exists) // BUG: ctxbackground
		if err != nil {
			logger.Printf("ImportPoints %s: dedupe: %v", ext, err)
			skipped++
			continue
		}
		if exists {
			skipped++
			continue
		}

		if _, err := helpers.Earn(stream.Context(), req.GetMemberId(), req.GetPoints(), "import", ext); err != nil { // OK
			logger.Printf("ImportPoints %s: %v", ext, err)
			skipped++
			continue
		}
		imported++
	}

	dctx := context.WithoutCancel(stream.Context())
	// ^BUG: detach
	if _, err := s.db.ExecContext(dctx, `INSERT INTO import_runs (source, imported, skipped, finished_at) VALUES ($1, $2, $3, now())`, source, imported, skipped); err != nil {
		logger.Printf("ImportPoints %s: run record: %v", source, err)
	}
	return stream.SendAndClose(&loyaltyv1.ImportPointsResponse{Imported: imported, Skipped: skipped})
}
