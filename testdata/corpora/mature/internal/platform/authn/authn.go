// Package authn verifies the HMAC-signed service tokens issued by the
// platform's token service. Tokens look like "<kid>.<base64 payload>.<base64 mac>".
package authn

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"
)

// ErrInvalidToken is returned for malformed, forged or expired tokens.
var ErrInvalidToken = errors.New("authn: invalid token")

// Claims are the verified contents of a token.
type Claims struct {
	Subject string    `json:"sub"`
	Scopes  []string  `json:"scp"`
	Expires time.Time `json:"exp"`
}

// HasScope reports whether the token grants scope.
func (c Claims) HasScope(scope string) bool {
	for _, s := range c.Scopes {
		if s == scope {
			return true
		}
	}
	return false
}

// Verifier checks tokens against the signing keys published by the token
// service, fetching unknown key ids on demand.
type Verifier struct {
	keysURL string
	client  *http.Client
	log     *slog.Logger

	mu   sync.RWMutex
	keys map[string][]byte
}

// NewVerifier returns a Verifier that fetches keys from keysURL.
func NewVerifier(keysURL string, log *slog.Logger) *Verifier {
	return &Verifier{
		keysURL: keysURL,
		client:  &http.Client{Timeout: 10 * time.Second},
		log:     log,
		keys:    map[string][]byte{},
	}
}

// Verify checks tok and returns its claims.
func (v *Verifier) Verify(ctx context.Context, tok string) (Claims, error) {
	kid, rest, ok := strings.Cut(tok, ".")
	if !ok {
		return Claims{}, ErrInvalidToken
	}
	payload, mac, ok := strings.Cut(rest, ".")
	if !ok {
		return Claims{}, ErrInvalidToken
	}
	key, err := v.key(ctx, kid)
	if err != nil {
		return Claims{}, err
	}
	want := hmac.New(sha256.New, key)
	want.Write([]byte(kid + "." + payload))
	got, err := base64.RawURLEncoding.DecodeString(mac)
	if err != nil || !hmac.Equal(got, want.Sum(nil)) {
		return Claims{}, ErrInvalidToken
	}
	raw, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil {
		return Claims{}, ErrInvalidToken
	}
	var c Claims
	if err := json.Unmarshal(raw, &c); err != nil || time.Now().After(c.Expires) {
		return Claims{}, ErrInvalidToken
	}
	return c, nil
}

func (v *Verifier) key(ctx context.Context, kid string) ([]byte, error) {
	v.mu.RLock()
	k, ok := v.keys[kid]
	v.mu.RUnlock()
	if ok {
		return k, nil
	}
	if err := v.refresh(ctx); err != nil {
		return nil, err
	}
	v.mu.RLock()
	defer v.mu.RUnlock()
	if k, ok := v.keys[kid]; ok {
		return k, nil
	}
	return nil, ErrInvalidToken
}

func (v *Verifier) refresh(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, v.keysURL, nil)
	if err != nil {
		return err
	}
	resp, err := v.client.Do(req)
	if err != nil {
		return fmt.Errorf("authn: fetch keys: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("authn: fetch keys: %s", resp.Status)
	}
	var keys map[string][]byte
	if err := json.NewDecoder(resp.Body).Decode(&keys); err != nil {
		return fmt.Errorf("authn: decode keys: %w", err)
	}
	v.mu.Lock()
	v.keys = keys
	v.mu.Unlock()
	return nil
}

// Run refreshes the key set every interval until ctx is done, so that key
// rotation does not cost the first request after it a round trip.
func (v *Verifier) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		if err := v.refresh(rctx); err != nil {
			v.log.Warn("key refresh failed", "err", err)
		}
		cancel()
	}
}
