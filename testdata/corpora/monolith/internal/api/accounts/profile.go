package accounts

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	accountsv1 "example.test/monolith/gen/accounts/v1"
	"example.test/monolith/internal/platform/audit"
	"example.test/monolith/internal/platform/auth"
	"example.test/monolith/internal/repository"
	"example.test/monolith/internal/service/accountsvc"
	"example.test/monolith/pkg/legacy"
)

type profileHandlers struct {
	accountsv1.UnimplementedAccountServiceServer

	svc      *accountsvc.Service
	settings *legacy.Client
	audit    *audit.Writer
	log      *slog.Logger
}

func (h *profileHandlers) GetProfile(ctx context.Context, req *accountsv1.GetProfileRequest) (*accountsv1.Profile, error) {
	a, err := h.svc.Profile(ctx, req.GetAccountId()) // OK
	if err != nil {
		return nil, toStatus(err)
	}
	p := profileToProto(a)
	if flags, err := h.settings.Get("profile.tier_override." + a.ID); err == nil && flags != "" { // BUG: ctxless ALSO: ctxbackground
		p.Tier = flags
	}
	return p, nil
}

func (h *profileHandlers) UpdateProfile(ctx context.Context, req *accountsv1.UpdateProfileRequest) (*accountsv1.Profile, error) {
	claims, ok := auth.ClaimsFrom(ctx) // OK
	if !ok || (claims.AccountID != req.GetAccountId() && !claims.HasScope("accounts:write")) {
		return nil, status.Error(codes.PermissionDenied, "not your account")
	}
	a, err := h.svc.UpdateProfile(ctx, req.GetAccountId(), req.GetDisplayName(), req.GetLocale()) // BUG: ctxbackground
	if err != nil {
		return nil, toStatus(err)
	}
	h.log.InfoContext(ctx, "profile updated", "account", a.ID) // OK
	return profileToProto(a), nil
}

func (h *profileHandlers) CloseAccount(ctx context.Context, req *accountsv1.CloseAccountRequest) (*accountsv1.CloseAccountResponse, error) {
	id := req.GetAccountId()
	claims, _ := auth.ClaimsFrom(ctx)
	entry := audit.Entry{Action: "account.close", Resource: id, Meta: map[string]string{"reason": req.GetReason()}}
	if claims != nil {
		entry.Actor = claims.Subject
	}
	if err := h.svc.Close(ctx, id, req.GetReason()); err != nil { // OK
		h.svc.Forget(id) // OK: the same root as the finding at profile.go:47, which lists this call (one finding per root, precision issue)
		entry.Outcome = "error"
		h.audit.WriteAsync(ctx, entry) // OK
		return nil, toStatus(err)
	}
	h.svc.Forget(id) // OK
	entry.Outcome = "ok"
	h.audit.WriteAsync(ctx, entry) // OK
	return &accountsv1.CloseAccountResponse{Closed: true}, nil
}

func (h *profileHandlers) SyncContacts(stream accountsv1.AccountService_SyncContactsServer) error {
	ctx := stream.Context()
	var synced int32
	for {
		c, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		err = h.svc.UpsertContact(ctx, repository.Contact{ // OK
			AccountID: c.GetAccountId(),
			Email:     strings.TrimSpace(c.GetEmail()),
			Name:      c.GetName(),
		})
		if err != nil {
			h.log.WarnContext(ctx, "contact skipped", "account", c.GetAccountId(), "err", err) // OK
			continue
		}
		synced++
	}
	if synced > 0 {
		if err := h.svc.ReindexContacts(); err != nil { // BUG: ctxbackground
			h.log.ErrorContext(ctx, "contact reindex failed", "err", err)
		}
	}
	return stream.SendAndClose(&accountsv1.SyncContactsResponse{Synced: synced})
}
