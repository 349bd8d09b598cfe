// Package accounts implements accounts.v1.AccountsService over connect-go.
package accounts

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"log"
	"os/exec"
	"strings"
	"time"

	"connectrpc.com/connect"
	"golang.org/x/sync/errgroup"

	accountsv1 "example.test/gateway/gen/accounts/v1"
	"example.test/gateway/gen/accounts/v1/accountsv1connect"
	"example.test/gateway/internal/billing"
	"example.test/gateway/internal/events"
)

// Handler implements accountsv1connect.AccountsServiceHandler.
type Handler struct {
	db             *sql.DB
	repo           *Repo
	billing        *billing.Client
	events         *events.Publisher
	sealer         string
	publishTimeout time.Duration
	pollEvery      time.Duration
	runCtx         context.Context
}

var _ accountsv1connect.AccountsServiceHandler = (*Handler)(nil)

// Options configure the handler.
type Options struct {
	Sealer         string // path of the KMS CLI that seals new secrets
	PublishTimeout time.Duration
	PollEvery      time.Duration
}

// NewHandler returns the accounts handler. runCtx lives as long as the server.
func NewHandler(runCtx context.Context, db *sql.DB, b *billing.Client, ev *events.Publisher, opts Options) (*Handler, error) {
	pctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // OK
	defer cancel()
	if err := db.PingContext(pctx); err != nil {
		return nil, fmt.Errorf("accounts: database: %w", err)
	}
	return &Handler{db: db, repo: NewRepo(db), billing: b, events: ev, sealer: opts.Sealer,
		publishTimeout: opts.PublishTimeout, pollEvery: opts.PollEvery, runCtx: runCtx}, nil
}

func toProto(a *Account) *accountsv1.Account {
	return &accountsv1.Account{Id: a.ID, Email: a.Email, Plan: a.Plan, RateLimitRps: a.RateLimitRPS, Disabled: a.Disabled}
}

func repoError(err error) error {
	if errors.Is(err, errNotFound) {
		return connect.NewError(connect.CodeNotFound, err)
	}
	return connect.NewError(connect.CodeInternal, err)
}

// planName asks billing for the account's current plan, falling back to the
// plan recorded on the account.
func (h *Handler) planName(a *Account) string {
	p, err := h.billing.PlanFor(context.Background(), a.ID)
	if err != nil {
		log.Printf("accounts: billing plan for %s: %v", a.ID, err)
		return a.Plan
	}
	return p.Name
}

// GetAccount returns one account with its current billing plan.
func (h *Handler) GetAccount(ctx context.Context, req *connect.Request[accountsv1.GetAccountRequest]) (*connect.Response[accountsv1.Account], error) {
	a, err := h.repo.Get(ctx, req.Msg.GetId()) // OK
	if err != nil {
		return nil, repoError(err)
	}
	a.Plan = h.planName(a) // BUG: ctxbackground
	return connect.NewResponse(toProto(a)), nil
}

// UpdateAccount changes an account's email, rate limit or disabled flag.
func (h *Handler) UpdateAccount(ctx context.Context, req *connect.Request[accountsv1.UpdateAccountRequest]) (*connect.Response[accountsv1.Account], error) {
	m := req.Msg
	tx, err := h.db.Begin() // BUG: ctxless
	if err != nil {
		return nil, connect.NewError(connect.CodeUnavailable, err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE accounts SET email = coalesce(nullif($2, ''), email), rate_limit_rps = $3, disabled = $4 WHERE id = $1 AND deleted_at IS NULL`, // OK
		m.GetId(), m.GetEmail(), m.GetRateLimitRps(), m.GetDisabled())
	if err != nil {
		return nil, connect.NewError(connect.CodeInternal, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil, connect.NewError(connect.CodeNotFound, fmt.Errorf("account %s not found", m.GetId()))
	}
	if m.GetDisabled() {
		if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE account_id = $1`, m.GetId()); err != nil { // OK
			return nil, connect.NewError(connect.CodeInternal, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, connect.NewError(connect.CodeInternal, err)
	}
	a, err := h.repo.Get(ctx, m.GetId())
	if err != nil {
		return nil, repoError(err)
	}
	ev := events.Event{Type: "account.updated", Subject: a.ID, At: time.Now().UTC(), Attrs: map[string]string{"disabled": fmt.Sprint(a.Disabled)}}
	//deadlinelint:detach the change event must follow the committed row even if the caller has hung up
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), h.publishTimeout) // OK
	defer cancel()
	if err := h.events.Publish(pctx, "accounts", ev); err != nil { // OK
		log.Printf("accounts: publish %s: %v", ev.Type, err)
	}
	return connect.NewResponse(toProto(a)), nil
}

// DeleteAccount revokes everything an account holds and soft-deletes it.
func (h *Handler) DeleteAccount(ctx context.Context, req *connect.Request[accountsv1.DeleteAccountRequest]) (*connect.Response[accountsv1.DeleteAccountResponse], error) {
	id := req.Msg.GetId()
	if _, err := h.repo.Get(ctx, id); err != nil {
		return nil, repoError(err)
	}
	g, gctx := errgroup.WithContext(context.Background()) // BUG: ctxbackground
	g.Go(func() error { return h.repo.RevokeSessions(gctx, id) })
	g.Go(func() error { return h.repo.RevokeKeys(gctx, id, "") })
	if err := g.Wait(); err != nil {
		return nil, connect.NewError(connect.CodeInternal, err)
	}
	if err := h.repo.SoftDelete(ctx, id); err != nil { // OK
		return nil, connect.NewError(connect.CodeInternal, err)
	}
	ev := events.Event{Type: "account.deleted", Subject: id, At: time.Now().UTC()}
	// Downstream systems have to hear about the deletion even if the caller hangs up.
	go h.events.Publish(context.WithoutCancel(ctx), "accounts", ev)
	// ^BUG: detach
	return connect.NewResponse(&accountsv1.DeleteAccountResponse{}), nil
}

// RotateKey issues a new API key for an account and revokes the old ones.
func (h *Handler) RotateKey(ctx context.Context, req *connect.Request[accountsv1.RotateKeyRequest]) (*connect.Response[accountsv1.RotateKeyResponse], error) {
	account := req.Msg.GetAccountId()
	var raw [24]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return nil, connect.NewError(connect.CodeInternal, err)
	}
	secret := "gk_" + hex.EncodeToString(raw[:])
	keyID := "key_" + hex.EncodeToString(raw[:4])
	sum := sha256.Sum256([]byte(secret))
	hash := hex.EncodeToString(sum[:])

	cmd := exec.CommandContext(ctx, h.sealer, "encrypt", "--key", "gateway-api-keys") // OK
	cmd.Stdin = strings.NewReader(secret)
	sealed, err := cmd.Output()
	if err != nil {
		return nil, connect.NewError(connect.CodeUnavailable, fmt.Errorf("seal secret: %w", err))
	}

	for attempt := 0; ; attempt++ {
		actx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // BUG: ctxbackground
		err = h.repo.InsertKey(actx, account, keyID, hash)
		cancel()
		if err == nil || attempt == 2 {
			break
		}
		select {
		case <-ctx.Done():
			return nil, connect.NewError(connect.CodeCanceled, ctx.Err())
		case <-time.After(time.Duration(attempt+1) * 200 * time.Millisecond):
		}
	}
	if err != nil {
		return nil, connect.NewError(connect.CodeInternal, err)
	}
	if err := h.repo.RevokeKeys(ctx, account, keyID); err != nil { // OK
		return nil, connect.NewError(connect.CodeInternal, err)
	}
	ev := events.Event{Type: "key.rotated", Subject: account, At: time.Now().UTC(), Attrs: map[string]string{"key_id": keyID, "sealed": hex.EncodeToString(sealed)}}
	if err := h.events.Publish(h.runCtx, "keys", ev); err != nil { // BUG: ctxflow
		log.Printf("accounts: publish %s: %v", ev.Type, err)
	}
	return connect.NewResponse(&accountsv1.RotateKeyResponse{KeyId: keyID, Secret: secret}), nil
}

// ListSessions streams an account's sessions; with follow it keeps streaming
// new activity until the client goes away.
func (h *Handler) ListSessions(ctx context.Context, req *connect.Request[accountsv1.ListSessionsRequest], stream *connect.ServerStream[accountsv1.Session]) error {
	account := req.Msg.GetAccountId()
	since := time.Time{}
	t := time.NewTicker(h.pollEvery)
	defer t.Stop()
	for {
		rows, err := h.repo.Sessions(ctx, account, since) // OK
		if err != nil {
			return connect.NewError(connect.CodeInternal, err)
		}
		for _, s := range rows {
			if err := stream.Send(&accountsv1.Session{Id: s.ID, AccountId: account, ClientIp: s.ClientIP, LastSeenUnix: s.LastSeen.Unix()}); err != nil {
				return err
			}
			since = s.LastSeen
		}
		if !req.Msg.GetFollow() {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}
