package server

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	loyaltyv1 "example.test/legacy/gen/loyalty/v1"
	rewardsv1 "example.test/legacy/gen/rewards/v1"
	"example.test/legacy/internal/db"
	"example.test/legacy/internal/helpers"
	"example.test/legacy/internal/util"
)

type expiring struct {
	memberID string
	points   int64
}

// ExpirePoints is called by the nightly job in batches.
func (s *Server) ExpirePoints(ctx context.Context, req *loyaltyv1.ExpirePointsRequest) (*loyaltyv1.ExpirePointsResponse, error) {
	before := time.Now().UTC()
	if req.GetBefore() != "" {
		t, err := time.Parse("2006-01-02", req.GetBefore())
		if err != nil {
			return nil, status.Error(codes.InvalidArgument, "before must be YYYY-MM-DD")
		}
		before = t
	}
	batch := int(req.GetBatchSize())
	if batch <= 0 || batch > 5000 {
		batch = 500
	}

	rows, err := s.db.QueryContext(ctx,
		`SELECT member_id, sum(points) FROM transactions
		  WHERE settled AND NOT expired AND points > 0 AND expires_at < $1
		  GROUP BY member_id LIMIT $2`, before, batch)
	if err != nil {
		logger.Printf("ExpirePoints: %v", err)
		return nil, status.Error(codes.Internal, "could not select expiring points")
	}
	var todo []expiring
	for rows.Next() {
		var e expiring
		if err := rows.Scan(&e.memberID, &e.points); err != nil {
			rows.Close()
			return nil, status.Error(codes.Internal, "could not read expiring points")
		}
		todo = append(todo, e)
	}
	rows.Close()

	resp := &loyaltyv1.ExpirePointsResponse{}
	for _, e := range todo {
		if req.GetDryRun() {
			resp.Members++
			resp.Points += e.points
			continue
		}
		err := db.Tx(func(tx *sql.Tx) error { // OK
			_, err := tx.Exec(`INSERT INTO transactions (member_id, points, kind, reference, settled, created_at) VALUES ($1, $2, 'expire', $3, true, now())`, e.memberID, -e.points, before.Format("2006-01-02")) // BUG: ctxless
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE transactions SET expired = true WHERE member_id = $1 AND expires_at < $2 AND points > 0`, e.memberID, before); err != nil {
				return err
			}
			_, err = tx.ExecContext(ctx, `UPDATE members SET points = greatest(points - $2, 0) WHERE id = $1`, e.memberID, e.points)
			return err
		})
		if err != nil {
			logger.Printf("ExpirePoints %s: %v", e.memberID, err)
			continue
		}
		resp.Members++
		resp.Points += e.points
	}

	// run statistics for the ops dashboard
	go func() {
		sctx := context.WithValue(context.Background(), requestIDKey{}, ctx.Value(requestIDKey{})) // BUG: ctxbackground ALSO: detach
		s.recordRun(sctx, "expire", resp.GetMembers(), resp.GetPoints())
	}()

	return resp, nil
}

// RecalculateTier recomputes one member's tier and grants the tier-up gift.
func (s *Server) RecalculateTier(ctx context.Context, req *loyaltyv1.RecalculateTierRequest) (*loyaltyv1.Member, error) {
	id := strings.TrimSpace(req.GetMemberId())
	if id == "" {
		return nil, status.Error(codes.InvalidArgument, "member_id is required")
	}
	m, err := s.store.Load(ctx, id)
	if errors.Is(err, db.ErrNotFound) {
		return nil, status.Errorf(codes.NotFound, "member %s not found", id)
	}
	if err != nil {
		logger.Printf("RecalculateTier %s: %v", id, err)
		return nil, status.Error(codes.Internal, "could not load member")
	}

	var spend int64
	err = s.db.QueryRowContext(ctx,
		`SELECT coalesce(sum(amount_cents), 0) FROM receipts WHERE member_id = $1 AND created_at > now() - interval '12 months'`, id).Scan(&spend)
	if err != nil {
		logger.Printf("RecalculateTier %s: spend: %v", id, err)
		return nil, status.Error(codes.Internal, "could not compute spend")
	}
	newTier := helpers.TierFor(spend)
	if newTier == m.Tier {
		return toMember(m), nil
	}

	if _, err := s.db.ExecContext(ctx, `UPDATE members SET tier = $2, tier_changed_at = now() WHERE id = $1`, id, newTier); err != nil {
		logger.Printf("RecalculateTier %s: update: %v", id, err)
		return nil, status.Error(codes.Internal, "could not update tier")
	}
	oldTier := m.Tier
	m.Tier = newTier

	if rank(newTier) > rank(oldTier) {
		list, err := s.rewards.ListRewards(ctx, &rewardsv1.ListRewardsRequest{Tier: newTier}) // OK
		if err != nil {
			logger.Printf("RecalculateTier %s: rewards: %v", id, err)
			return toMember(m), nil
		}
		for _, r := range list.GetRewards() {
			if r.GetCostPoints() != 0 {
				continue
			}
			err := util.Retry(func() error {
				rctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // BUG: ctxbackground
				defer cancel()
				_, err := helpers.AwardBonus(rctx, s.rewards, id, r.GetId(), "tier_up:"+newTier)
				return err
			})
			if err != nil {
				logger.Printf("RecalculateTier %s: gift %s: %v", id, r.GetId(), err)
			}
		}
	}
	return toMember(m), nil
}

func rank(tier string) int {
	switch tier {
	case "silver":
		return 1
	case "gold":
		return 2
	case "platinum":
		return 3
	}
	return 0
}

func toMember(m *db.MemberRow) *loyaltyv1.Member {
	return &loyaltyv1.Member{
		Id:          m.ID,
		Email:       m.Email,
		Name:        m.Name,
		Tier:        m.Tier,
		Points:      m.Points,
		EnrolledAt:  timestamppb.New(m.EnrolledAt),
		PartnerCode: m.PartnerCode,
	}
}

func (s *Server) recordRun(ctx context.Context, job string, members, points int64) {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO job_stats (job, request_id, members, points, at) VALUES ($1, $2, $3, $4, now())`,
		job, requestIDFrom(ctx), members, points); err != nil {
		logger.Printf("recordRun %s: %v", job, err)
	}
}
