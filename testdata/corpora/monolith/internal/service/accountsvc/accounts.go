// Package accountsvc is the application layer of the accounts API: caching, orchestration and
// everything the handlers need that is not a business rule.
package accountsvc

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"example.test/monolith/internal/domain/account"
	"example.test/monolith/internal/platform/cache"
	"example.test/monolith/internal/repository"
)

const profileTTL = 5 * time.Minute

// Service serves profile and session operations.
type Service struct {
	accounts *account.Service
	cache    *cache.Cache
	log      *slog.Logger
}

// New returns the service.
func New(accounts *account.Service, c *cache.Cache, log *slog.Logger) *Service {
	return &Service{accounts: accounts, cache: c, log: log}
}

func profileKey(id string) string  { return "profile:" + id }
func sessionsKey(id string) string { return "sessions:" + id }

// Profile returns an account, from cache when possible.
func (s *Service) Profile(ctx context.Context, id string) (*repository.Account, error) {
	if b, ok, err := s.cache.Get(ctx, profileKey(id)); err == nil && ok {
		var a repository.Account
		if json.Unmarshal(b, &a) == nil {
			return &a, nil
		}
	}
	a, err := s.accounts.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if b, err := json.Marshal(a); err == nil {
		if err := s.cache.Set(ctx, profileKey(id), b, profileTTL); err != nil {
			s.log.WarnContext(ctx, "profile cache fill failed", "account", id, "err", err)
		}
	}
	return a, nil
}

// UpdateProfile applies a profile edit.
func (s *Service) UpdateProfile(ctx context.Context, id, displayName, locale string) (*repository.Account, error) {
	a, err := s.accounts.Update(ctx, id, displayName, locale)
	if err != nil {
		return nil, err
	}
	s.cache.Invalidate(profileKey(id))
	return a, nil
}

// Forget drops everything cached about an account.
func (s *Service) Forget(id string) {
	s.cache.Invalidate(profileKey(id), sessionsKey(id))
}

// Close closes an account.
func (s *Service) Close(ctx context.Context, id, reason string) error {
	return s.accounts.Close(ctx, id, reason)
}

// Sessions lists sessions.
func (s *Service) Sessions(ctx context.Context, id string) ([]repository.Session, error) {
	return s.accounts.Sessions(ctx, id)
}

// TouchSessions marks sessions as recently seen.
func (s *Service) TouchSessions(ctx context.Context, accountID string, ids []string) error {
	return s.accounts.TouchSessions(ctx, accountID, ids)
}

// RevokeSession ends a session.
func (s *Service) RevokeSession(ctx context.Context, accountID, sessionID string) (bool, error) {
	ok, err := s.accounts.RevokeSession(ctx, accountID, sessionID)
	if err != nil {
		return false, err
	}
	if ok {
		if err := s.cache.Delete(ctx, sessionsKey(accountID)); err != nil {
			s.log.WarnContext(ctx, "sessions cache delete failed", "account", accountID, "err", err)
		}
	}
	return ok, nil
}

// UpsertContact stores one address-book entry.
func (s *Service) UpsertContact(ctx context.Context, c repository.Contact) error {
	return s.accounts.UpsertContact(ctx, c)
}

// ReindexContacts rebuilds the contact search index after a bulk sync.
func (s *Service) ReindexContacts() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	return s.accounts.RebuildContacts(ctx)
}
