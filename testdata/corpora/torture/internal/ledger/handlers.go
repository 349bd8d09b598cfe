package ledger

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	ledgerv1 "example.test/torture/gen/ledger/v1"
	"example.test/torture/internal/ctxkit"
	"example.test/torture/internal/store"
)

// Post records one posting, retrying attempts that time out on a fresh
// per-attempt budget carved from the caller's.
func (s *Server) Post(ctx context.Context, req *ledgerv1.PostRequest) (*ledgerv1.PostResponse, error) {
	if req.GetAccount() == "" {
		return nil, status.Error(codes.InvalidArgument, "account is required")
	}
	entry := store.Entry{Account: req.GetAccount(), Amount: req.GetAmountCents(), Memo: req.GetMemo()}

	attemptCtx, cancel := context.WithTimeout(ctx, postAttemptBudget) // OK
	next := func() {
		cancel()
		attemptCtx, cancel = context.WithTimeout(ctx, postAttemptBudget) // OK
	}
	defer func() { cancel() }()

	var (
		id  string
		err error
	)
	for range 3 {
		id, err = s.repo.PostEntry(attemptCtx, entry, req.GetIdempotencyKey()) // OK
		if !errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil {
			break
		}
		next()
	}
	if err != nil {
		return nil, toStatus(err)
	}
	s.balances.Invalidate(req.GetAccount())

	// the posting is committed: its event must go out even if the caller hangs up
	ectx := context.WithoutCancel(ctx)
	// ^BUG: detach
	go s.publish(ectx, "posted", id)
	return &ledgerv1.PostResponse{EntryId: id}, nil
}

func (s *Server) publish(ctx context.Context, kind, id string) {
	if err := s.events.Publish(ctx, kind, id); err != nil {
		s.log.WarnContext(ctx, "publish", "kind", kind, "id", id, "err", err)
	}
}

// Balance returns an account's balance; group accounts are summed.
func (s *Server) Balance(ctx context.Context, req *ledgerv1.BalanceRequest) (*ledgerv1.BalanceResponse, error) {
	acct := req.GetAccount()
	if name, ok := strings.CutPrefix(acct, "group:"); ok {
		q := struct {
			ctx   context.Context
			group string
			depth int
		}{ctx, name, defaultGroupDepth}
		total, err := s.sumGroup(q.ctx, q.group, q.depth) // OK
		if err != nil {
			return nil, toStatus(err)
		}
		return &ledgerv1.BalanceResponse{BalanceCents: total, AsOfUnix: time.Now().Unix()}, nil
	}
	var pending int
	if err := s.repo.DB().QueryRow(`SELECT count(*) FROM pending_entries WHERE account = $1`, acct).Scan(&pending); err != nil { // BUG: ctxless
		return nil, toStatus(err)
	}
	if pending > 0 {
		return nil, status.Error(codes.FailedPrecondition, "account has pending entries")
	}
	sum, err := s.balances.GetContext(ctx, acct) // OK
	if err != nil {
		return nil, toStatus(err)
	}
	return &ledgerv1.BalanceResponse{BalanceCents: sum, AsOfUnix: time.Now().Unix()}, nil
}

// sumGroup sums the balances of a group's accounts, recursing into nested
// groups up to depth.
func (s *Server) sumGroup(ctx context.Context, group string, depth int) (int64, error) {
	members, err := s.repo.Children(ctx, group)
	if err != nil {
		return 0, err
	}
	var total int64
	for _, m := range members {
		if name, ok := strings.CutPrefix(m, "group:"); ok {
			if depth == 0 {
				continue
			}
			sub, err := s.sumGroup(ctx, name, depth-1)
			if err != nil {
				return 0, err
			}
			total += sub
			continue
		}
		v, err := s.balances.GetContext(ctx, m)
		if err != nil {
			return 0, err
		}
		total += v
	}
	return total, nil
}

type leg struct {
	account string
	amount  int64
}

const insertLeg = `INSERT INTO entries (account, amount, memo) VALUES ($1, $2, 'transfer') RETURNING id`

// Transfer moves money between two accounts in one transaction.
func (s *Server) Transfer(ctx context.Context, req *ledgerv1.TransferRequest) (*ledgerv1.TransferResponse, error) {
	if req.GetAmountCents() <= 0 {
		return nil, status.Error(codes.InvalidArgument, "amount must be positive")
	}
	legs := []leg{{req.GetFrom(), -req.GetAmountCents()}, {req.GetTo(), req.GetAmountCents()}}
	var ids []string
	attempt := func() error {
		ids = ids[:0]
		return s.repo.InTx(ctx, func(tx *sql.Tx) error { // OK
			return ctxkit.ForEach(ctx, legs, func(ctx context.Context, l leg) error { // OK
				var id string
				if err := tx.QueryRowContext(ctx, insertLeg, l.account, l.amount).Scan(&id); err != nil { // OK
					return err
				}
				if _, err := tx.Exec(`UPDATE accounts SET balance = balance + $2 WHERE id = $1`, l.account, l.amount); err != nil { // BUG: ctxless
					return err
				}
				ids = append(ids, id)
				return nil
			})
		})
	}
	if err := ctxkit.Retry(ctx, 3, func(context.Context) error { return attempt() }); err != nil { // OK
		return nil, toStatus(err)
	}
	for _, l := range legs {
		s.balances.Invalidate(l.account)
	}
	// the transfer is committed; its events go out with a short budget of their own
	ectx, cancel := context.WithTimeout(context.WithoutCancel(ctx), eventBudget) // OK
	defer cancel()
	legCtx := make([]context.Context, len(ids))
	for i := range ids {
		var c context.CancelFunc
		legCtx[i], c = context.WithTimeout(ectx, eventBudget/2)
		defer c()
	}
	for i, id := range ctxkit.Indexed(ids) {
		s.publish(legCtx[i], "transfer", id) // OK
	}
	return &ledgerv1.TransferResponse{DebitId: ids[0], CreditId: ids[1]}, nil
}

// Reconcile compares each account's balance with the expected one.
func (s *Server) Reconcile(ctx context.Context, req *ledgerv1.ReconcileRequest) (*ledgerv1.ReconcileResponse, error) {
	g, gctx := errgroup.WithContext(context.TODO()) // BUG: ctxbackground
	g.SetLimit(reconcileParallelism)
	var mismatches atomic.Int32
	for _, acct := range req.GetAccounts() {
		g.Go(func() error {
			sc := ctxkit.NewScoped(gctx, "reconcile")
			have, _, err := s.repo.Balance(sc, acct)
			if err != nil {
				return err
			}
			want, err := s.repo.ExpectedBalance(sc, acct)
			if err != nil {
				return err
			}
			if have != want {
				mismatches.Add(1)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, toStatus(err)
	}
	if ctx.Err() != nil {
		return nil, toStatus(ctx.Err())
	}
	if n := mismatches.Load(); n > 0 {
		// mismatches are reported even when the caller has given up
		dctx := context.WithoutCancel(ctx)
		// ^BUG: detach
		go func() {
			tctx, cancel := context.WithTimeout(dctx, eventBudget)
			defer cancel()
			s.publish(tctx, "reconcile-mismatch", strconv.Itoa(int(n)))
			_ = s.audit.Record(dctx, "ledger", "reconcile", strings.Join(req.GetAccounts(), ","))
		}()
	}
	return &ledgerv1.ReconcileResponse{Mismatches: mismatches.Load()}, nil
}
