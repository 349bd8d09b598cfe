// Package rewards implements rewards.v1.RewardsService: the reward catalogue
// and the grants (voucher codes) handed out for points.
package rewards

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"math/big"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	rewardsv1 "example.test/legacy/gen/rewards/v1"
	"example.test/legacy/internal/db"
	"example.test/legacy/internal/util"
)

var rlog = log.New(os.Stderr, "[rewards] ", log.LstdFlags|log.Lshortfile)

// Server is the RewardsService implementation.
type Server struct {
	rewardsv1.UnimplementedRewardsServiceServer

	db          *sql.DB
	ctx         context.Context
	printerAddr string
	mailerURL   string
}

// New returns a Server over database.
func New(database *sql.DB) *Server {
	addr := os.Getenv("VOUCHER_PRINTER_ADDR")
	if addr == "" {
		addr = "printer.internal:9100"
	}
	return &Server{
		db:          database,
		ctx:         context.Background(), // OK
		printerAddr: addr,
		mailerURL:   "http://mailer.internal/v1/send",
	}
}

func (s *Server) ListRewards(ctx context.Context, req *rewardsv1.ListRewardsRequest) (*rewardsv1.ListRewardsResponse, error) {
	q := `SELECT id, title, cost_points, tier, active FROM rewards WHERE ($1 = '' OR tier = $1)`
	if !req.GetIncludeInactive() {
		q += ` AND active`
	}
	rows, err := s.db.QueryContext(ctx, q+` ORDER BY cost_points`, req.GetTier())
	if err != nil {
		rlog.Printf("ListRewards: %v", err)
		return nil, status.Error(codes.Internal, "could not list rewards")
	}
	defer rows.Close()
	out := &rewardsv1.ListRewardsResponse{}
	for rows.Next() {
		r := &rewardsv1.Reward{}
		if err := rows.Scan(&r.Id, &r.Title, &r.CostPoints, &r.Tier, &r.Active); err != nil {
			return nil, status.Error(codes.Internal, "could not read rewards")
		}
		out.Rewards = append(out.Rewards, r)
	}
	return out, rows.Err()
}

func (s *Server) GetReward(ctx context.Context, req *rewardsv1.GetRewardRequest) (*rewardsv1.Reward, error) {
	if req.GetRewardId() == "" {
		return nil, status.Error(codes.InvalidArgument, "reward_id is required")
	}
	r := &rewardsv1.Reward{}
	row := s.db.QueryRow(`SELECT id, title, cost_points, tier, active FROM rewards WHERE id = $1`, req.GetRewardId()) // BUG: ctxless
	err := row.Scan(&r.Id, &r.Title, &r.CostPoints, &r.Tier, &r.Active)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, status.Errorf(codes.NotFound, "reward %s not found", req.GetRewardId())
	}
	if err != nil {
		rlog.Printf("GetReward %s: %v", req.GetRewardId(), err)
		return nil, status.Error(codes.Internal, "could not load reward")
	}
	return r, nil
}

func (s *Server) GrantReward(ctx context.Context, req *rewardsv1.GrantRewardRequest) (*rewardsv1.GrantRewardResponse, error) {
	if req.GetMemberId() == "" || req.GetRewardId() == "" {
		return nil, status.Error(codes.InvalidArgument, "member_id and reward_id are required")
	}
	key := req.GetIdempotencyKey()

	if key != "" {
		g := &rewardsv1.Grant{}
		err := s.db.QueryRowContext(ctx, `SELECT id, member_id, reward_id, code, status FROM grants WHERE idempotency_key = $1`, key).
			Scan(&g.Id, &g.MemberId, &g.RewardId, &g.Code, &g.Status)
		if err == nil {
			return &rewardsv1.GrantRewardResponse{Grant: g}, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			rlog.Printf("GrantReward %s: idempotency: %v", key, err)
			return nil, status.Error(codes.Internal, "could not check idempotency")
		}
	}

	reward, err := s.GetReward(ctx, &rewardsv1.GetRewardRequest{RewardId: req.GetRewardId()})
	if err != nil {
		return nil, err
	}
	if !reward.GetActive() {
		return nil, status.Errorf(codes.FailedPrecondition, "reward %s is not active", reward.GetId())
	}

	code, err := voucherCode()
	if err != nil {
		return nil, status.Error(codes.Internal, "could not generate code")
	}
	g := &rewardsv1.Grant{MemberId: req.GetMemberId(), RewardId: reward.GetId(), Code: code, Status: "issued"}
	err = s.db.QueryRowContext(ctx,
		`INSERT INTO grants (member_id, reward_id, code, status, reason, idempotency_key, created_at)
		 VALUES ($1, $2, $3, 'issued', $4, nullif($5, ''), now()) RETURNING id`,
		g.MemberId, g.RewardId, g.Code, req.GetReason(), key).Scan(&g.Id)
	if err != nil {
		rlog.Printf("GrantReward %s/%s: %v", req.GetMemberId(), reward.GetId(), err)
		return nil, status.Error(codes.Internal, "could not store grant")
	}

	// physical vouchers are printed at the service desk
	if strings.HasPrefix(reward.GetId(), "phys-") {
		conn, err := net.DialTimeout("tcp", s.printerAddr, 2*time.Second) // BUG: ctxless
		if err != nil {
			rlog.Printf("GrantReward %s: printer: %v", g.Id, err)
		} else {
			_ = conn.SetDeadline(time.Now().Add(2 * time.Second))
			fmt.Fprintf(conn, "VOUCHER %s %s %s\n", g.Code, reward.GetTitle(), g.MemberId)
			conn.Close()
		}
	}

	db.SaveAudit("grant", g.MemberId, g.RewardId+" "+g.Code) // BUG: ctxbackground

	go s.emailCode(context.WithoutCancel(ctx), g)
	// ^BUG: detach

	return &rewardsv1.GrantRewardResponse{Grant: g}, nil
}

func (s *Server) RevokeGrant(ctx context.Context, req *rewardsv1.RevokeGrantRequest) (*rewardsv1.RevokeGrantResponse, error) {
	if req.GetGrantId() == "" {
		return nil, status.Error(codes.InvalidArgument, "grant_id is required")
	}
	var memberID, rewardID, st string
	err := s.db.QueryRowContext(ctx, `SELECT member_id, reward_id, status FROM grants WHERE id = $1`, req.GetGrantId()).Scan(&memberID, &rewardID, &st)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, status.Errorf(codes.NotFound, "grant %s not found", req.GetGrantId())
	}
	if err != nil {
		return nil, status.Error(codes.Internal, "could not load grant")
	}
	if st == "revoked" {
		return &rewardsv1.RevokeGrantResponse{Revoked: true}, nil
	}
	if st == "redeemed" {
		return nil, status.Error(codes.FailedPrecondition, "grant was already redeemed")
	}

	if _, err := s.db.ExecContext(s.ctx, `UPDATE grants SET status = 'revoked', revoke_reason = $2, revoked_at = now() WHERE id = $1`, req.GetGrantId(), req.GetReason()); err != nil { // BUG: ctxflow
		rlog.Printf("RevokeGrant %s: %v", req.GetGrantId(), err)
		return nil, status.Error(codes.Internal, "could not revoke grant")
	}

	var cost int64
	if err := s.db.QueryRowContext(ctx, `SELECT cost_points FROM rewards WHERE id = $1`, rewardID).Scan(&cost); err != nil {
		rlog.Printf("RevokeGrant %s: cost: %v", req.GetGrantId(), err)
		return &rewardsv1.RevokeGrantResponse{Revoked: true}, nil
	}
	if cost > 0 {
		// the refund goes straight into the loyalty ledger
		lctx, cancel := context.WithTimeout(context.Background(), 3*time.Second) // BUG: ctxbackground
		defer cancel()
		if _, err := util.DoIt(lctx, memberID, cost, "grant_revoked", req.GetGrantId()); err != nil {
			rlog.Printf("RevokeGrant %s: refund of %d to %s: %v", req.GetGrantId(), cost, memberID, err)
		}
	}
	return &rewardsv1.RevokeGrantResponse{Revoked: true}, nil
}

func (s *Server) ExportGrants(req *rewardsv1.ExportGrantsRequest, stream grpc.ServerStreamingServer[rewardsv1.Grant]) error {
	ctx := stream.Context()
	since := time.Now().AddDate(0, 0, -1)
	if req.GetSince() != "" {
		t, err := time.Parse("2006-01-02", req.GetSince())
		if err != nil {
			return status.Error(codes.InvalidArgument, "since must be YYYY-MM-DD")
		}
		since = t
	}
	rows, err := s.db.QueryContext(ctx,
		`SELECT id, member_id, reward_id, code, status FROM grants WHERE created_at >= $1 AND ($2 = '' OR status = $2) ORDER BY id`,
		since, req.GetStatus())
	if err != nil {
		rlog.Printf("ExportGrants: %v", err)
		return status.Error(codes.Internal, "could not export grants")
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		g := &rewardsv1.Grant{}
		if err := rows.Scan(&g.Id, &g.MemberId, &g.RewardId, &g.Code, &g.Status); err != nil {
			return status.Error(codes.Internal, "could not read grants")
		}
		if err := stream.Send(g); err != nil {
			return err
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return status.Error(codes.Internal, "could not read grants")
	}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO export_runs (name, rows, at) VALUES ('grants', $1, now())`, n); err != nil {
		rlog.Printf("ExportGrants: run record: %v", err)
	}
	return nil
}

func (s *Server) emailCode(ctx context.Context, g *rewardsv1.Grant) {
	body, _ := json.Marshal(map[string]string{"template": "voucher", "member": g.MemberId, "code": g.Code})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.mailerURL, bytes.NewReader(body))
	if err != nil {
		return
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := util.HTTP.Do(req)
	if err != nil {
		rlog.Printf("emailCode %s: %v", g.Id, err)
		return
	}
	resp.Body.Close()
}

const codeAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"

func voucherCode() (string, error) {
	var b strings.Builder
	for i := 0; i < 10; i++ {
		n, err := rand.Int(rand.Reader, big.NewInt(int64(len(codeAlphabet))))
		if err != nil {
			return "", err
		}
		b.WriteByte(codeAlphabet[n.Int64()])
	}
	return b.String(), nil
}
