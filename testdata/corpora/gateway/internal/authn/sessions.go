package authn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"example.test/gateway/internal/platform/kv"
)

// Sessions looks up bearer sessions that the login service writes into the
// cache sidecar.
type Sessions struct {
	kv     *kv.Client
	prefix string
}

// NewSessions returns a session store reading keys under prefix.
func NewSessions(c *kv.Client, prefix string) *Sessions {
	return &Sessions{kv: c, prefix: prefix}
}

type sessionRecord struct {
	Subject   string   `json:"sub"`
	AccountID string   `json:"acct"`
	TenantID  string   `json:"tenant"`
	Scopes    []string `json:"scopes"`
	Plan      string   `json:"plan"`
}

// Lookup resolves a bearer token to its principal.
func (s *Sessions) Lookup(ctx context.Context, token string) (*Principal, error) {
	raw, err := s.kv.GetContext(ctx, s.prefix+token)
	if errors.Is(err, kv.ErrMiss) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("authn: session lookup: %w", err)
	}
	var rec sessionRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, fmt.Errorf("authn: corrupt session record: %w", err)
	}
	return &Principal{Subject: rec.Subject, AccountID: rec.AccountID, TenantID: rec.TenantID, Scopes: rec.Scopes, Plan: rec.Plan}, nil
}

// Remember caches an externally introspected token for ttl seconds.
func (s *Sessions) Remember(ctx context.Context, token string, p *Principal, ttlSeconds int64) error {
	raw, err := json.Marshal(sessionRecord{Subject: p.Subject, AccountID: p.AccountID, TenantID: p.TenantID, Scopes: p.Scopes, Plan: p.Plan})
	if err != nil {
		return err
	}
	return s.kv.SetContext(ctx, s.prefix+token, raw, secondsToDuration(ttlSeconds))
}
