// Package account holds the account and ledger business rules.
package account

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"example.test/monolith/internal/platform/db"
	"example.test/monolith/internal/repository"
	"example.test/monolith/internal/repository/pgrepo"
)

var (
	// ErrClosed is returned for operations on a closed account.
	ErrClosed = errors.New("account: closed")
	// ErrInvalid is returned for malformed input.
	ErrInvalid = errors.New("account: invalid argument")
)

var supportedLocales = map[string]bool{"en-GB": true, "en-US": true, "de-DE": true, "fr-FR": true, "nl-NL": true}

// Service applies the account rules on top of an AccountStore.
type Service struct {
	store repository.AccountStore
	now   func() time.Time
}

// NewService returns the service backed by Postgres.
func NewService(d *db.DB) *Service {
	return &Service{store: pgrepo.NewAccounts(d), now: time.Now}
}

// NewServiceWithStore returns a service on an arbitrary store (tests, tools).
func NewServiceWithStore(store repository.AccountStore) *Service {
	return &Service{store: store, now: time.Now}
}

// Get returns an open account.
func (s *Service) Get(ctx context.Context, id string) (*repository.Account, error) {
	if id == "" {
		return nil, fmt.Errorf("%w: empty account id", ErrInvalid)
	}
	a, err := s.store.GetAccount(ctx, id)
	if err != nil {
		return nil, err
	}
	if a.ClosedAt != nil {
		return nil, ErrClosed
	}
	return a, nil
}

// Update changes the editable profile fields.
func (s *Service) Update(ctx context.Context, id, displayName, locale string) (*repository.Account, error) {
	displayName = strings.TrimSpace(displayName)
	if len(displayName) > 80 {
		return nil, fmt.Errorf("%w: display name too long", ErrInvalid)
	}
	if locale != "" && !supportedLocales[locale] {
		return nil, fmt.Errorf("%w: unsupported locale %q", ErrInvalid, locale)
	}
	a, err := s.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if displayName != "" {
		a.DisplayName = displayName
	}
	if locale != "" {
		a.Locale = locale
	}
	if err := s.store.UpdateAccount(ctx, a); err != nil {
		return nil, err
	}
	a.UpdatedAt = s.now()
	return a, nil
}

// Close closes an account and ends its sessions.
func (s *Service) Close(ctx context.Context, id, reason string) error {
	if _, err := s.Get(ctx, id); err != nil {
		return err
	}
	return s.store.CloseAccount(ctx, id, reason)
}

// Sessions lists the sessions of an account.
func (s *Service) Sessions(ctx context.Context, id string) ([]repository.Session, error) {
	return s.store.ListSessions(ctx, id)
}

// TouchSessions marks sessions as seen.
func (s *Service) TouchSessions(ctx context.Context, accountID string, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	return s.store.TouchSessions(ctx, accountID, ids)
}

// RevokeSession ends one session.
func (s *Service) RevokeSession(ctx context.Context, accountID, sessionID string) (bool, error) {
	if sessionID == "" {
		return false, fmt.Errorf("%w: empty session id", ErrInvalid)
	}
	return s.store.DeleteSession(ctx, accountID, sessionID)
}

// UpsertContact stores an address-book entry.
func (s *Service) UpsertContact(ctx context.Context, c repository.Contact) error {
	if !strings.Contains(c.Email, "@") {
		return fmt.Errorf("%w: bad email %q", ErrInvalid, c.Email)
	}
	c.Email = strings.ToLower(c.Email)
	return s.store.UpsertContact(ctx, c)
}

// RebuildContacts refreshes the contact search index.
func (s *Service) RebuildContacts(ctx context.Context) error {
	return s.store.RebuildContactIndex(ctx)
}
