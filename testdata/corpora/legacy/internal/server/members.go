package server

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	loyaltyv1 "example.test/legacy/gen/loyalty/v1"
	"example.test/legacy/internal/db"
	"example.test/legacy/internal/helpers"
	"example.test/legacy/internal/util"
)

func (s *Server) GetMember(ctx context.Context, req *loyaltyv1.GetMemberRequest) (*loyaltyv1.Member, error) {
	id := strings.TrimSpace(req.GetMemberId())
	if id == "" {
		return nil, status.Error(codes.InvalidArgument, "member_id is required")
	}

	view, err := helpers.LoadMemberView(id) // BUG: ctxbackground
	if errors.Is(err, db.ErrNotFound) {
		return nil, status.Errorf(codes.NotFound, "member %s not found", id)
	}
	if err != nil {
		logger.Printf("GetMember %s: %v", id, err)
		return nil, status.Error(codes.Internal, "could not load member")
	}
	if !view.Active {
		return nil, status.Errorf(codes.FailedPrecondition, "member %s is not active", id)
	}

	// pending points are not part of the view
	var pending int64
	err = s.db.QueryRowContext(ctx,
		`SELECT coalesce(sum(points), 0) FROM transactions WHERE member_id = $1 AND NOT settled`, id).Scan(&pending)
	if err != nil {
		logger.Printf("GetMember %s: pending: %v", id, err)
	}

	// partner name for the app header
	var partnerName string
	if view.PartnerCode != "" {
		row := s.db.QueryRowContext(context.Background(), `SELECT name FROM partners WHERE code = $1`, view.PartnerCode) // BUG: ctxbackground
		if err := row.Scan(&partnerName); err != nil && !errors.Is(err, sql.ErrNoRows) {
			logger.Printf("GetMember %s: partner %s: %v", id, view.PartnerCode, err)
		}
	}

	// the stored tier lags behind; the app wants the live one
	tier := view.Tier
	if live, err := s.tierFn(id); err == nil { // BUG: ctxbackground
		tier = live
	} else {
		logger.Printf("GetMember %s: live tier: %v", id, err)
	}

	m := &loyaltyv1.Member{
		Id:          view.ID,
		Email:       view.Email,
		Name:        view.Name,
		Tier:        tier,
		Points:      view.Points + pending,
		EnrolledAt:  timestamppb.New(view.EnrolledAt),
		PartnerCode: view.PartnerCode,
	}
	if partnerName != "" {
		m.Name = fmt.Sprintf("%s (%s)", view.Name, partnerName)
	}
	return m, nil
}

func (s *Server) EnrollMember(ctx context.Context, req *loyaltyv1.EnrollMemberRequest) (*loyaltyv1.Member, error) {
	email := strings.ToLower(strings.TrimSpace(req.GetEmail()))
	name := strings.TrimSpace(req.GetName())
	if !strings.Contains(email, "@") {
		return nil, status.Error(codes.InvalidArgument, "a valid email is required")
	}
	if name == "" {
		name = strings.Split(email, "@")[0]
	}

	existing, err := db.MemberByEmail(ctx, email)
	if err == nil {
		return nil, status.Errorf(codes.AlreadyExists, "email already enrolled as %s", existing.ID)
	}
	if !errors.Is(err, db.ErrNotFound) {
		logger.Printf("EnrollMember %s: lookup: %v", email, err)
		return nil, status.Error(codes.Internal, "could not check email")
	}

	// referral codes are validated by the marketing service
	var bonus int64
	if code := req.GetReferralCode(); code != "" {
		resp, err := http.Get(referralURL + "/codes/" + url.PathEscape(code)) // BUG: ctxless
		if err != nil {
			logger.Printf("EnrollMember: referral %s: %v", code, err)
		} else {
			var rc struct {
				Valid bool  `json:"valid"`
				Bonus int64 `json:"bonus"`
			}
			err = json.NewDecoder(resp.Body).Decode(&rc)
			resp.Body.Close()
			if err == nil && rc.Valid {
				bonus = rc.Bonus
			}
		}
	}

	id := newID()
	now := time.Now().UTC()
	_, err = s.db.ExecContext(ctx,
		`INSERT INTO members (id, email, name, tier, points, partner_code, enrolled_at, status)
		 VALUES ($1, $2, $3, 'basic', 0, nullif($4, ''), $5, 'active')`,
		id, email, name, req.GetPartnerCode(), now)
	if err != nil {
		logger.Printf("EnrollMember %s: insert: %v", email, err)
		return nil, status.Error(codes.Internal, "could not enroll")
	}

	if bonus > 0 {
		if _, err := util.DoIt(ctx, id, bonus, "referral", req.GetReferralCode()); err != nil { // OK
			logger.Printf("EnrollMember %s: referral bonus: %v", id, err)
		}
	}

	db.SaveAudit("enroll", id, email) // BUG: ctxbackground

	if _, err := helpers.AwardBonus(appCtx, s.rewards, id, welcomeRewardID, "welcome"); err != nil { // BUG: ctxflow
		logger.Printf("EnrollMember %s: welcome reward: %v", id, err)
	}

	ev := helpers.PartnerEvent{Type: "member.enrolled", MemberID: id, Points: bonus, At: now}
	go helpers.NotifyPartner(req.GetPartnerCode(), ev) // BUG: ctxbackground

	go func() {
		wctx := context.WithoutCancel(ctx)
		// ^BUG: detach
		if err := s.sendWelcomeMail(wctx, id, email, name); err != nil {
			logger.Printf("EnrollMember %s: welcome mail: %v", id, err)
		}
	}()

	return &loyaltyv1.Member{
		Id:          id,
		Email:       email,
		Name:        name,
		Tier:        "basic",
		Points:      bonus,
		EnrolledAt:  timestamppb.New(now),
		PartnerCode: req.GetPartnerCode(),
	}, nil
}

func (s *Server) UpdateMember(ctx context.Context, req *loyaltyv1.UpdateMemberRequest) (*loyaltyv1.Member, error) {
	id := strings.TrimSpace(req.GetMemberId())
	if id == "" {
		return nil, status.Error(codes.InvalidArgument, "member_id is required")
	}
	email := strings.ToLower(strings.TrimSpace(req.GetEmail()))
	if email != "" && !strings.Contains(email, "@") {
		return nil, status.Error(codes.InvalidArgument, "invalid email")
	}

	before, err := s.store.Load(ctx, id) // OK
	if errors.Is(err, db.ErrNotFound) {
		return nil, status.Errorf(codes.NotFound, "member %s not found", id)
	}
	if err != nil {
		logger.Printf("UpdateMember %s: %v", id, err)
		return nil, status.Error(codes.Internal, "could not load member")
	}

	res, err := s.db.Exec(`UPDATE members SET email = coalesce(nullif($2, ''), email), name = coalesce(nullif($3, ''), name), updated_at = now() WHERE id = $1`, // BUG: ctxless
		id, email, strings.TrimSpace(req.GetName()))
	if err != nil {
		logger.Printf("UpdateMember %s: %v", id, err)
		return nil, status.Error(codes.Internal, "could not update member")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil, status.Errorf(codes.NotFound, "member %s not found", id)
	}

	helpers.RefreshBalanceCache(id) // BUG: ctxbackground

	after, err := s.store.Load(ctx, id)
	if err != nil {
		logger.Printf("UpdateMember %s: reload: %v", id, err)
		return nil, status.Error(codes.Internal, "could not reload member")
	}

	if before.Email != after.Email {
		_, err := s.db.ExecContext(appCtx, `INSERT INTO member_history (member_id, field, old_value, new_value, changed_at) VALUES ($1, 'email', $2, $3, now())`, id, before.Email, after.Email) // BUG: ctxflow
		if err != nil {
			logger.Printf("UpdateMember %s: history: %v", id, err)
		}
	}

	return &loyaltyv1.Member{
		Id:          after.ID,
		Email:       after.Email,
		Name:        after.Name,
		Tier:        after.Tier,
		Points:      after.Points,
		EnrolledAt:  timestamppb.New(after.EnrolledAt),
		PartnerCode: after.PartnerCode,
	}, nil
}

func (s *Server) MergeMembers(ctx context.Context, req *loyaltyv1.MergeMembersRequest) (*loyaltyv1.Member, error) {
	keep, drop := req.GetKeepMemberId(), req.GetDropMemberId()
	if keep == "" || drop == "" || keep == drop {
		return nil, status.Error(codes.InvalidArgument, "two different member ids are required")
	}

	var keepRow, dropRow *db.MemberRow
	g, gctx := errgroup.WithContext(context.Background()) // BUG: ctxbackground
	g.Go(func() error {
		var err error
		keepRow, err = s.store.Load(gctx, keep)
		return err
	})
	g.Go(func() error {
		var err error
		dropRow, err = s.store.Load(gctx, drop)
		return err
	})
	if err := g.Wait(); err != nil {
		if errors.Is(err, db.ErrNotFound) {
			return nil, status.Error(codes.NotFound, "member not found")
		}
		logger.Printf("MergeMembers %s<-%s: %v", keep, drop, err)
		return nil, status.Error(codes.Internal, "could not load members")
	}
	if dropRow.Status != "active" {
		return nil, status.Errorf(codes.FailedPrecondition, "member %s is %s", drop, dropRow.Status)
	}

	err := db.WithTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE transactions SET member_id = $1 WHERE member_id = $2`, keep, drop); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE members SET points = points + $2 WHERE id = $1`, keep, dropRow.Points); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE members SET points = 0 WHERE id = $1`, drop)
		return err
	})
	if err != nil {
		logger.Printf("MergeMembers %s<-%s: tx: %v", keep, drop, err)
		return nil, status.Error(codes.Internal, "merge failed")
	}

	if err := s.store.SetStatus(ctx, drop, "merged"); err != nil { // BUG: ctxbackground
		logger.Printf("MergeMembers %s<-%s: status: %v", keep, drop, err)
	}

	if err := util.Redis.Del(baseContext(), "bal:"+keep, "bal:"+drop).Err(); err != nil { // BUG: ctxflow
		logger.Printf("MergeMembers: cache: %v", err)
	}

	//deadlinelint:detach the partner program must learn about the merge even if the admin tool gives up
	nctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second) // OK
	go func() {
		defer cancel()
		body, _ := json.Marshal(map[string]string{"keep": keep, "drop": drop})
		if err := util.PostJSONContext(nctx, "/partners/"+keepRow.PartnerCode+"/merges", json.RawMessage(body)); err != nil {
			logger.Printf("MergeMembers: partner notify: %v", err)
		}
	}()

	return &loyaltyv1.Member{
		Id:          keepRow.ID,
		Email:       keepRow.Email,
		Name:        keepRow.Name,
		Tier:        keepRow.Tier,
		Points:      keepRow.Points + dropRow.Points,
		EnrolledAt:  timestamppb.New(keepRow.EnrolledAt),
		PartnerCode: keepRow.PartnerCode,
	}, nil
}

func (s *Server) sendWelcomeMail(ctx context.Context, id, email, name string) error {
	body, err := json.Marshal(map[string]string{
		"template": "welcome",
		"to":       email,
		"name":     name,
		"member":   id,
	})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, mailerURL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := httpClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("mailer: %s", resp.Status)
	}
	return nil
}
