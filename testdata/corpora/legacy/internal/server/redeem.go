package server

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/lib/pq"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	loyaltyv1 "example.test/legacy/gen/loyalty/v1"
	rewardsv1 "example.test/legacy/gen/rewards/v1"
	"example.test/legacy/internal/db"
	"example.test/legacy/internal/helpers"
	"example.test/legacy/internal/util"
)

func isSerializationFailure(err error) bool {
	var pqErr *pq.Error
	return errors.As(err, &pqErr) && pqErr.Code == "40001"
}

func (s *Server) RedeemPoints(ctx context.Context, req *loyaltyv1.RedeemPointsRequest) (*loyaltyv1.Transaction, error) {
	id := strings.TrimSpace(req.GetMemberId())
	if id == "" || req.GetRewardId() == "" {
		return nil, status.Error(codes.InvalidArgument, "member_id and reward_id are required")
	}
	key := req.GetIdempotencyKey()
	if key == "" {
		key = id + ":" + req.GetRewardId() + ":" + time.Now().Format("2006-01-02")
	}

	var st, tier string
	var balance int64
	if err := s.db.QueryRowContext(ctx, `SELECT status, tier, points FROM members WHERE id = $1`, id).Scan(&st, &tier, &balance); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, status.Errorf(codes.NotFound, "member %s not found", id)
		}
		logger.Printf("RedeemPoints %s: %v", id, err)
		return nil, status.Error(codes.Internal, "could not load member")
	}
	if st != "active" {
		return nil, status.Errorf(codes.FailedPrecondition, "member %s is %s", id, st)
	}

	// only rewards of the member's tier can be redeemed
	catalog, err := helpers.ListActiveRewards(tier) // BUG: ctxbackground
	if err != nil {
		logger.Printf("RedeemPoints %s: catalogue: %v", id, err)
		return nil, status.Error(codes.Unavailable, "rewards catalogue unavailable")
	}
	var reward *rewardsv1.Reward
	for _, r := range catalog {
		if r.GetId() == req.GetRewardId() {
			reward = r
			break
		}
	}
	if reward == nil {
		// not in the cached catalogue, ask the rewards service directly; it is slow, give it room
		gctx, cancel := context.WithTimeout(context.Background(), 8*time.Second) // BUG: ctxbackground
		defer cancel()
		reward, err = s.rewards.GetReward(gctx, &rewardsv1.GetRewardRequest{RewardId: req.GetRewardId()})
		if err != nil {
			return nil, status.Errorf(codes.NotFound, "reward %s not found", req.GetRewardId())
		}
	}
	cost := reward.GetCostPoints()
	if req.GetPoints() > 0 && req.GetPoints() != cost {
		return nil, status.Errorf(codes.InvalidArgument, "reward costs %d points", cost)
	}
	if balance < cost {
		return nil, status.Errorf(codes.FailedPrecondition, "balance %d is below %d", balance, cost)
	}

	var existing string
	err = s.db.QueryRowContext(ctx, `SELECT id FROM transactions WHERE idempotency_key = $1`, key).Scan(&existing)
	if err == nil {
		return &loyaltyv1.Transaction{Id: existing, MemberId: id, Points: -cost, Kind: "redeem", Reference: req.GetRewardId()}, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		logger.Printf("RedeemPoints %s: idempotency: %v", id, err)
		return nil, status.Error(codes.Internal, "could not check idempotency")
	}

	// serialization failures are common at the tills on Saturdays; retry a few times
	var txID string
	for attempt := 0; attempt < 3; attempt++ {
		txID, err = s.debit(ctx, id, cost, req.GetRewardId(), key)
		if err == nil || !isSerializationFailure(err) {
			break
		}
		time.Sleep(time.Duration(attempt+1) * 150 * time.Millisecond) // BUG: ctxless
	}
	if err != nil {
		logger.Printf("RedeemPoints %s: debit: %v", id, err)
		return nil, status.Error(codes.Aborted, "could not debit points")
	}

	grant, err := s.rewards.GrantReward(s.ctx, &rewardsv1.GrantRewardRequest{ // BUG: ctxflow
		MemberId:       id,
		RewardId:       reward.GetId(),
		Reason:         "redeem",
		IdempotencyKey: key,
	})
	if err != nil {
		logger.Printf("RedeemPoints %s: grant: %v", id, err)
		// give the points back even if the till has given up on us
		cctx := context.WithoutCancel(ctx)
		// ^BUG: detach
		if _, cerr := util.DoIt(cctx, id, cost, "redeem_reversal", txID); cerr != nil {
			logger.Printf("RedeemPoints %s: reversal of %s FAILED: %v", id, txID, cerr)
		}
		return nil, status.Error(codes.Unavailable, "reward could not be granted, points returned")
	}

	return &loyaltyv1.Transaction{
		Id:        txID,
		MemberId:  id,
		Points:    -cost,
		Kind:      "redeem",
		Reference: grant.GetGrant().GetCode(),
		CreatedAt: timestamppb.Now(),
	}, nil
}

func (s *Server) debit(ctx context.Context, memberID string, points int64, rewardID, key string) (string, error) {
	var id string
	err := db.WithTx(ctx, func(tx *sql.Tx) error {
		var bal int64
		if err := tx.QueryRowContext(ctx, `SELECT points FROM members WHERE id = $1 FOR UPDATE`, memberID).Scan(&bal); err != nil {
			return err
		}
		if bal < points {
			return fmt.Errorf("insufficient points: %d < %d", bal, points)
		}
		return tx.QueryRowContext(ctx,
			`INSERT INTO transactions (member_id, points, kind, reference, idempotency_key, settled, created_at)
			 VALUES ($1, $2, 'redeem', $3, $4, true, now()) RETURNING id`,
			memberID, -points, rewardID, key).Scan(&id)
	})
	if err != nil {
		return "", err
	}
	_, err = s.db.ExecContext(ctx, `UPDATE members SET points = points - $2 WHERE id = $1`, memberID, points)
	return id, err
}

func (s *Server) TransferPoints(ctx context.Context, req *loyaltyv1.TransferPointsRequest) (*loyaltyv1.TransferPointsResponse, error) {
	from, to, pts := req.GetFromMemberId(), req.GetToMemberId(), req.GetPoints()
	if from == "" || to == "" || from == to {
		return nil, status.Error(codes.InvalidArgument, "two different member ids are required")
	}
	if pts <= 0 {
		return nil, status.Error(codes.InvalidArgument, "points must be positive")
	}

	// large transfers go through the fraud service first
	if pts >= 10_000 {
		ctx := context.TODO() // BUG: ctxbackground
		flagged, err := s.fraudCheck(ctx, from, to, pts)
		if err != nil {
			logger.Printf("TransferPoints %s->%s: fraud check: %v", from, to, err)
			return nil, status.Error(codes.Unavailable, "fraud check unavailable")
		}
		if flagged {
			db.SaveAudit("transfer_blocked", from, fmt.Sprintf("to=%s points=%d", to, pts)) // OK: the same root as the finding at members.go:139, which lists this call (one finding per root, precision issue)
			return nil, status.Error(codes.PermissionDenied, "transfer needs manual review")
		}
	}

	tx, err := s.db.Begin() // BUG: ctxless
	if err != nil {
		logger.Printf("TransferPoints: begin: %v", err)
		return nil, status.Error(codes.Internal, "could not start transfer")
	}
	defer func() { _ = tx.Rollback() }()

	var fromPts int64
	if err := tx.QueryRowContext(ctx, `SELECT points FROM members WHERE id = $1 AND status = 'active' FOR UPDATE`, from).Scan(&fromPts); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, status.Errorf(codes.NotFound, "member %s not found", from)
		}
		return nil, status.Error(codes.Internal, "could not lock sender")
	}
	if fromPts < pts {
		return nil, status.Errorf(codes.FailedPrecondition, "balance %d is below %d", fromPts, pts)
	}
	var toStatus string
	if err := tx.QueryRowContext(ctx, `SELECT status FROM members WHERE id = $1 FOR UPDATE`, to).Scan(&toStatus); err != nil || toStatus != "active" {
		return nil, status.Errorf(codes.FailedPrecondition, "member %s cannot receive points", to)
	}

	debitID, err := db.InsertTxn(ctx, tx, from, -pts, "transfer_out", to)
	if err != nil {
		logger.Printf("TransferPoints: debit: %v", err)
		return nil, status.Error(codes.Internal, "transfer failed")
	}
	creditID, err := db.InsertTxn(ctx, tx, to, pts, "transfer_in", from)
	if err != nil {
		logger.Printf("TransferPoints: credit: %v", err)
		return nil, status.Error(codes.Internal, "transfer failed")
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO transfers (debit_id, credit_id, created_at) VALUES ($1, $2, now())`, debitID, creditID); err != nil {
		logger.Printf("TransferPoints: link: %v", err)
		return nil, status.Error(codes.Internal, "transfer failed")
	}
	if err := tx.Commit(); err != nil {
		logger.Printf("TransferPoints: commit: %v", err)
		return nil, status.Error(codes.Internal, "transfer failed")
	}

	nctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	// ^BUG: detach
	go func() {
		defer cancel()
		s.notifyTransfer(nctx, from, to, pts)
	}()

	now := timestamppb.Now()
	return &loyaltyv1.TransferPointsResponse{
		Debit:  &loyaltyv1.Transaction{Id: debitID, MemberId: from, Points: -pts, Kind: "transfer_out", Reference: to, CreatedAt: now},
		Credit: &loyaltyv1.Transaction{Id: creditID, MemberId: to, Points: pts, Kind: "transfer_in", Reference: from, CreatedAt: now},
	}, nil
}

func (s *Server) AdjustPoints(ctx context.Context, req *loyaltyv1.AdjustPointsRequest) (*loyaltyv1.Transaction, error) {
	id := strings.TrimSpace(req.GetMemberId())
	if id == "" || req.GetPoints() == 0 {
		return nil, status.Error(codes.InvalidArgument, "member_id and non-zero points are required")
	}
	if strings.TrimSpace(req.GetReason()) == "" || req.GetOperator() == "" {
		return nil, status.Error(codes.InvalidArgument, "reason and operator are required")
	}

	var isOperator bool
	if err := s.db.QueryRowContext(ctx, `SELECT exists(SELECT 1 FROM operators WHERE login = $1 AND active)`, req.GetOperator()).Scan(&isOperator); err != nil {
		logger.Printf("AdjustPoints: operator %s: %v", req.GetOperator(), err)
		return nil, status.Error(codes.Internal, "could not check operator")
	}
	if !isOperator {
		return nil, status.Errorf(codes.PermissionDenied, "%s is not an operator", req.GetOperator())
	}

	var st string
	if err := s.db.QueryRowContext(ctx, `SELECT status FROM members WHERE id = $1`, id).Scan(&st); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, status.Errorf(codes.NotFound, "member %s not found", id)
		}
		logger.Printf("AdjustPoints %s: %v", id, err)
		return nil, status.Error(codes.Internal, "could not load member")
	}

	txID, err := util.DoIt(ctx, id, req.GetPoints(), "adjust", req.GetOperator()+": "+req.GetReason()) // OK
	if err != nil {
		logger.Printf("AdjustPoints %s: %v", id, err)
		return nil, status.Error(codes.Internal, "could not book adjustment")
	}

	helpers.Audit("adjust", id, fmt.Sprintf("%+d by %s: %s", req.GetPoints(), req.GetOperator(), req.GetReason())) // OK: the same root as the finding at members.go:139, which lists this call (one finding per root, precision issue)

	// finance mirrors every manual adjustment; it must be sent even if the admin tool disconnects
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second) // OK
	go func() {
		defer cancel()
		if err := s.exportAdjustment(actx, txID, id, req.GetPoints(), req.GetReason()); err != nil {
			logger.Printf("AdjustPoints %s: finance export: %v", id, err)
		}
	}()

	return &loyaltyv1.Transaction{
		Id:        txID,
		MemberId:  id,
		Points:    req.GetPoints(),
		Kind:      "adjust",
		Reference: req.GetReason(),
		CreatedAt: timestamppb.Now(),
	}, nil
}

func (s *Server) fraudCheck(ctx context.Context, from, to string, pts int64) (bool, error) {
	body, _ := json.Marshal(map[string]any{"from": from, "to": to, "points": pts, "kind": "loyalty_transfer"})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, fraudURL, bytes.NewReader(body))
	if err != nil {
		return false, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := httpClient.Do(req)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	var out struct {
		Score float64 `json:"score"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return false, err
	}
	return out.Score > 0.8, nil
}

func (s *Server) notifyTransfer(ctx context.Context, from, to string, pts int64) {
	for _, m := range []string{from, to} {
		if _, err := s.db.ExecContext(ctx, `INSERT INTO notifications (member_id, kind, payload, created_at) VALUES ($1, 'transfer', $2, now())`,
			m, fmt.Sprintf(`{"from":%q,"to":%q,"points":%d}`, from, to, pts)); err != nil {
			logger.Printf("notifyTransfer %s: %v", m, err)
		}
	}
}

func (s *Server) exportAdjustment(ctx context.Context, txID, memberID string, pts int64, reason string) error {
	body, _ := json.Marshal(map[string]any{"txn": txID, "member": memberID, "points": pts, "reason": reason})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, financeURL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("finance: %s", resp.Status)
	}
	return nil
}
