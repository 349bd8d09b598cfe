package server

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	loyaltyv1 "example.test/legacy/gen/loyalty/v1"
	"example.test/legacy/internal/db"
	"example.test/legacy/internal/helpers"
	"example.test/legacy/internal/util"
)

const firstPurchaseRewardID = "first-purchase-bonus"

func (s *Server) GetBalance(ctx context.Context, req *loyaltyv1.GetBalanceRequest) (*loyaltyv1.Balance, error) {
	id := strings.TrimSpace(req.GetMemberId())
	if id == "" {
		return nil, status.Error(codes.InvalidArgument, "member_id is required")
	}

	if cached, ok := util.CachedBalance(ctx, id); ok { // OK
		tier, _ := s.lookupTier(id) // BUG: ctxbackground
		return &loyaltyv1.Balance{MemberId: id, Points: cached, Tier: tier}, nil
	}

	settled, pending, err := db.PointsBalance(ctx, id) // BUG: ctxbackground
	if err != nil {
		logger.Printf("GetBalance %s: %v", id, err)
		return nil, status.Error(codes.Internal, "could not compute balance")
	}

	var expiring int64
	err = s.db.QueryRow(`SELECT coalesce(sum(points), 0) FROM transactions WHERE member_id = $1 AND settled AND expires_at < now() + interval '30 days'`, id).Scan(&expiring) // BUG: ctxless
	if err != nil {
		logger.Printf("GetBalance %s: expiring: %v", id, err)
	}

	var tier string
	err = s.db.QueryRowContext(ctx, `SELECT tier FROM members WHERE id = $1`, id).Scan(&tier)
	if err != nil {
		logger.Printf("GetBalance %s: tier: %v", id, err)
		return nil, status.Errorf(codes.NotFound, "member %s not found", id)
	}

	util.SetCachedBalance(ctx, id, settled)
	return &loyaltyv1.Balance{
		MemberId:     id,
		Points:       settled,
		Pending:      pending,
		ExpiringSoon: expiring,
		Tier:         tier,
	}, nil
}

func (s *Server) EarnPoints(ctx context.Context, req *loyaltyv1.EarnPointsRequest) (*loyaltyv1.Transaction, error) {
	id := strings.TrimSpace(req.GetMemberId())
	if id == "" {
		return nil, status.Error(codes.InvalidArgument, "member_id is required")
	}
	if req.GetAmountCents() <= 0 {
		return nil, status.Error(codes.InvalidArgument, "amount must be positive")
	}

	var st string
	if err := s.db.QueryRowContext(ctx, `SELECT status FROM members WHERE id = $1`, id).Scan(&st); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, status.Errorf(codes.NotFound, "member %s not found", id)
		}
		logger.Printf("EarnPoints %s: %v", id, err)
		return nil, status.Error(codes.Internal, "could not load member")
	}
	if st != "active" {
		return nil, status.Errorf(codes.FailedPrecondition, "member %s is %s", id, st)
	}

	store, err := s.dir.Lookup(req.GetStoreId()) // BUG: ctxless
	if err != nil {
		// the directory cache sometimes holds a stale 404; ask the partner API once more
		store, err = util.LookupStore(ctx, req.GetStoreId()) // OK
	}
	if err != nil {
		logger.Printf("EarnPoints %s: store %s: %v", id, req.GetStoreId(), err)
		return nil, status.Error(codes.InvalidArgument, "unknown store")
	}
	if !store.Active {
		return nil, status.Errorf(codes.FailedPrecondition, "store %s is not active", store.ID)
	}

	pts, err := helpers.ProcessReceipt(ctx, req.GetReceiptId(), store.ID, req.GetAmountCents()) // BUG: ctxbackground
	if err != nil {
		logger.Printf("EarnPoints %s: receipt %s: %v", id, req.GetReceiptId(), err)
		return nil, status.Error(codes.InvalidArgument, "receipt could not be validated")
	}
	if store.Multiplier > 1 {
		pts = int64(float64(pts) * store.Multiplier)
	}

	ref := req.GetReceiptId()
	if ref == "" {
		ref = "manual:" + store.ID + ":" + strconv.FormatInt(time.Now().Unix(), 10)
	}

	// async earns come from the batch uploader, which does not wait for us
	c := ctx
	if req.GetAsync() {
		c = context.Background() // BUG: ctxbackground
	}
	txID, err := helpers.Earn(c, id, pts, "earn", ref)
	if err != nil {
		logger.Printf("EarnPoints %s: book: %v", id, err)
		return nil, status.Error(codes.Internal, "could not book points")
	}

	var earns int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM transactions WHERE member_id = $1 AND kind = 'earn'`, id).Scan(&earns); err == nil && earns == 1 {
		if _, err := helpers.AwardBonus(ctx, s.rewards, id, firstPurchaseRewardID, "first_purchase"); err != nil { // OK
			logger.Printf("EarnPoints %s: first purchase bonus: %v", id, err)
		}
	}

	// let the POS integration know
	if store.WebhookURL != "" {
		go func() {
			payload, _ := json.Marshal(map[string]any{"member": id, "points": pts, "receipt": ref, "txn": txID})
			resp, err := httpClient.Post(store.WebhookURL, "application/json", bytes.NewReader(payload)) // BUG: ctxless
			if err != nil {
				logger.Printf("EarnPoints: webhook %s: %v", store.ID, err)
				return
			}
			resp.Body.Close()
		}()
	}

	ev := memberEvent{Kind: "points.earned", MemberID: id, Points: pts, Ref: txID}
	go s.publish(context.WithoutCancel(ctx), ev)
	// ^BUG: detach

	return &loyaltyv1.Transaction{
		Id:        txID,
		MemberId:  id,
		Points:    pts,
		Kind:      "earn",
		Reference: ref,
		CreatedAt: timestamppb.Now(),
	}, nil
}

func (s *Server) ListTransactions(ctx context.Context, req *loyaltyv1.ListTransactionsRequest) (*loyaltyv1.ListTransactionsResponse, error) {
	id := strings.TrimSpace(req.GetMemberId())
	if id == "" {
		return nil, status.Error(codes.InvalidArgument, "member_id is required")
	}
	size := int(req.GetPageSize())
	if size <= 0 || size > 200 {
		size = 50
	}
	offset := 0
	if tok := req.GetPageToken(); tok != "" {
		b, err := base64.RawURLEncoding.DecodeString(tok)
		if err != nil {
			return nil, status.Error(codes.InvalidArgument, "bad page token")
		}
		offset, err = strconv.Atoi(string(b))
		if err != nil || offset < 0 {
			return nil, status.Error(codes.InvalidArgument, "bad page token")
		}
	}

	rows, err := s.db.Query(`SELECT id, points, kind, coalesce(reference, ''), created_at FROM transactions WHERE member_id = $1 ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`, id, size+1, offset) // BUG: ctxless
	if err != nil {
		logger.Printf("ListTransactions %s: %v", id, err)
		return nil, status.Error(codes.Internal, "could not list transactions")
	}
	defer rows.Close()

	out := &loyaltyv1.ListTransactionsResponse{}
	for rows.Next() {
		var (
			t       loyaltyv1.Transaction
			created time.Time
		)
		if err := rows.Scan(&t.Id, &t.Points, &t.Kind, &t.Reference, &created); err != nil {
			logger.Printf("ListTransactions %s: scan: %v", id, err)
			return nil, status.Error(codes.Internal, "could not read transactions")
		}
		t.MemberId = id
		t.CreatedAt = timestamppb.New(created)
		out.Transactions = append(out.Transactions, &t)
	}
	if err := rows.Err(); err != nil {
		logger.Printf("ListTransactions %s: rows: %v", id, err)
		return nil, status.Error(codes.Internal, "could not read transactions")
	}
	if len(out.Transactions) > size {
		out.Transactions = out.Transactions[:size]
		out.NextPageToken = base64.RawURLEncoding.EncodeToString([]byte(strconv.Itoa(offset + size)))
	}

	if total, err := db.CountTxns(id); err == nil && offset == 0 { // OK
		logger.Printf("ListTransactions %s: %d of %d", id, len(out.Transactions), total)
	}
	return out, nil
}
