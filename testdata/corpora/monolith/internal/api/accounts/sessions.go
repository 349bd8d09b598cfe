package accounts

import (
	"context"
	"database/sql"
	"log/slog"
	"time"

	"google.golang.org/grpc/metadata"

	accountsv1 "example.test/monolith/gen/accounts/v1"
	"example.test/monolith/internal/service/accountsvc"
)

type sessionHandlers struct {
	svc *accountsvc.Service
	db  *sql.DB
	log *slog.Logger
}

func (h *sessionHandlers) ListSessions(ctx context.Context, req *accountsv1.ListSessionsRequest) (*accountsv1.ListSessionsResponse, error) {
	rows, err := h.db.Query(`SELECT id, user_agent, ip, last_seen FROM sessions WHERE account_id = $1 ORDER BY last_seen DESC`, req.GetAccountId()) // BUG: ctxless
	if err != nil {
		return nil, toStatus(err)
	}
	defer rows.Close()
	resp := &accountsv1.ListSessionsResponse{}
	var ids []string
	for rows.Next() {
		var s accountsv1.Session
		var seen time.Time
		if err := rows.Scan(&s.Id, &s.UserAgent, &s.Ip, &seen); err != nil {
			return nil, toStatus(err)
		}
		s.LastSeenUnix = seen.Unix()
		resp.Sessions = append(resp.Sessions, &s)
		ids = append(ids, s.Id)
	}
	if err := rows.Err(); err != nil {
		return nil, toStatus(err)
	}

	tctx := ctx
	if md, ok := metadata.FromIncomingContext(ctx); ok && internalCaller(md) { // OK
		tctx = context.Background() // BUG: ctxbackground
	}
	if err := h.svc.TouchSessions(tctx, req.GetAccountId(), ids); err != nil {
		h.log.WarnContext(ctx, "touch sessions failed", "err", err) // OK
	}
	return resp, nil
}

func (h *sessionHandlers) RevokeSession(ctx context.Context, req *accountsv1.RevokeSessionRequest) (*accountsv1.RevokeSessionResponse, error) {
	ok, err := h.svc.RevokeSession(ctx, req.GetAccountId(), req.GetSessionId()) // BUG: ctxbackground
	if err != nil {
		return nil, toStatus(err)
	}
	h.log.InfoContext(ctx, "session revoked", "account", req.GetAccountId(), "session", req.GetSessionId(), "found", ok)
	return &accountsv1.RevokeSessionResponse{Revoked: ok}, nil
}
