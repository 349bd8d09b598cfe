package authn

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Key is a long-lived API key as stored in the api_keys table.
type Key struct {
	ID        string
	AccountID string
	TenantID  string
	Scopes    []string
	RevokedAt sql.NullTime
}

// KeyStore verifies API keys against Postgres. Only hashes are stored.
type KeyStore struct {
	db           *sql.DB
	checkTimeout time.Duration
}

// NewKeyStore returns a key store; checkTimeout bounds Check.
func NewKeyStore(db *sql.DB, checkTimeout time.Duration) *KeyStore {
	return &KeyStore{db: db, checkTimeout: checkTimeout}
}

const keyQuery = `SELECT id, account_id, tenant_id, scopes, revoked_at FROM api_keys WHERE key_hash = $1`

// Lookup verifies raw and returns its key record.
func (s *KeyStore) Lookup(ctx context.Context, raw string) (*Key, error) {
	var k Key
	var scopes string
	err := s.db.QueryRowContext(ctx, keyQuery, hashKey(raw)).Scan(&k.ID, &k.AccountID, &k.TenantID, &scopes, &k.RevokedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("authn: key lookup: %w", err)
	}
	if k.RevokedAt.Valid {
		return nil, ErrNotFound
	}
	k.Scopes = strings.Split(scopes, ",")
	return &k, nil
}

// Check is Lookup with the store's own timeout, for callers that have no
// context of their own (start-up checks, the bootstrap key).
func (s *KeyStore) Check(raw string) (*Key, error) {
	ctx, cancel := context.WithTimeout(context.Background(), s.checkTimeout) // OK
	defer cancel()
	return s.Lookup(ctx, raw)
}

// Touch records that the key was used.
func (s *KeyStore) Touch(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE api_keys SET last_used_at = now() WHERE id = $1`, id)
	return err
}

func hashKey(raw string) string {
	sum := sha256.Sum256([]byte(raw))
	return hex.EncodeToString(sum[:])
}

func secondsToDuration(s int64) time.Duration { return time.Duration(s) * time.Second }
