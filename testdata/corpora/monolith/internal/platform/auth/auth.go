// Package auth verifies the HMAC bearer tokens minted by the identity service.
package auth

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
)

// ErrInvalidToken is returned for malformed, expired or forged tokens.
var ErrInvalidToken = errors.New("auth: invalid token")

// Claims are the verified contents of a token.
type Claims struct {
	Subject   string    `json:"sub"`
	AccountID string    `json:"acct"`
	Scopes    []string  `json:"scp"`
	KeyID     string    `json:"kid"`
	Expires   time.Time `json:"exp"`
}

// HasScope reports whether the token grants scope.
func (c *Claims) HasScope(scope string) bool {
	for _, s := range c.Scopes {
		if s == scope || s == "admin" {
			return true
		}
	}
	return false
}

// Verifier checks tokens against the signing keys published by the identity service.
type Verifier struct {
	keysURL string
	hc      *http.Client

	mu      sync.Mutex
	keys    map[string][]byte
	fetched time.Time
}

// NewVerifier returns a verifier fetching keys from keysURL.
func NewVerifier(keysURL string) *Verifier {
	return &Verifier{keysURL: keysURL, hc: &http.Client{Timeout: 5 * time.Second}}
}

// Verify parses and checks token.
func (v *Verifier) Verify(ctx context.Context, token string) (*Claims, error) {
	payload, sig, ok := strings.Cut(token, ".")
	if !ok {
		return nil, ErrInvalidToken
	}
	raw, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil {
		return nil, ErrInvalidToken
	}
	var c Claims
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, ErrInvalidToken
	}
	keys, err := v.keySet(ctx)
	if err != nil {
		return nil, err
	}
	key, ok := keys[c.KeyID]
	if !ok {
		return nil, ErrInvalidToken
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(payload))
	want := hex.EncodeToString(mac.Sum(nil))
	if !hmac.Equal([]byte(want), []byte(sig)) || time.Now().After(c.Expires) {
		return nil, ErrInvalidToken
	}
	return &c, nil
}

func (v *Verifier) keySet(ctx context.Context) (map[string][]byte, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.keys != nil && time.Since(v.fetched) < 10*time.Minute {
		return v.keys, nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, v.keysURL, nil)
	if err != nil {
		return nil, err
	}
	resp, err := v.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("auth: fetch keys: %w", err)
	}
	defer resp.Body.Close()
	var body map[string]string
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return nil, err
	}
	keys := make(map[string][]byte, len(body))
	for kid, hexKey := range body {
		if k, err := hex.DecodeString(hexKey); err == nil {
			keys[kid] = k
		}
	}
	v.keys, v.fetched = keys, time.Now()
	return keys, nil
}

type claimsKey struct{}

// WithClaims attaches verified claims to ctx.
func WithClaims(ctx context.Context, c *Claims) context.Context {
	return context.WithValue(ctx, claimsKey{}, c)
}

// ClaimsFrom returns the claims attached by the auth interceptor.
func ClaimsFrom(ctx context.Context) (*Claims, bool) {
	c, ok := ctx.Value(claimsKey{}).(*Claims)
	return c, ok
}
