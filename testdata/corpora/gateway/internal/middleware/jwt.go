package middleware

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/gateway/internal/authn"
)

// JWTConfig configures the partner-token interceptor. Partners sign short-lived
// HS256 tokens with keys published at JWKSURL.
type JWTConfig struct {
	JWKSURL  string
	Issuer   string
	Audience string
	Methods  map[string]bool // methods that accept partner tokens
}

type jwks struct {
	Keys []struct {
		Kid string `json:"kid"`
		K   string `json:"k"`
	} `json:"keys"`
}

type claims struct {
	Iss   string `json:"iss"`
	Aud   string `json:"aud"`
	Sub   string `json:"sub"`
	Acct  string `json:"acct"`
	Scope string `json:"scope"`
	Exp   int64  `json:"exp"`
}

type keyCache struct {
	mu   sync.RWMutex
	keys map[string][]byte
}

func (k *keyCache) get(kid string) ([]byte, bool) {
	k.mu.RLock()
	defer k.mu.RUnlock()
	v, ok := k.keys[kid]
	return v, ok
}

func (k *keyCache) replace(set *jwks) error {
	keys := make(map[string][]byte, len(set.Keys))
	for _, key := range set.Keys {
		raw, err := base64.RawURLEncoding.DecodeString(key.K)
		if err != nil {
			return fmt.Errorf("jwks: key %s: %w", key.Kid, err)
		}
		keys[key.Kid] = raw
	}
	k.mu.Lock()
	k.keys = keys
	k.mu.Unlock()
	return nil
}

// LoadJWKS fetches the key set once; the server calls it at start-up.
func LoadJWKS(url string) (*jwks, error) {
	resp, err := http.Get(url) // OK
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var set jwks
	if err := json.NewDecoder(resp.Body).Decode(&set); err != nil {
		return nil, err
	}
	return &set, nil
}

// PartnerJWT accepts partner-signed JWTs on the configured methods. Unknown key
// ids trigger a refresh of the key set, since partners rotate without notice.
func PartnerJWT(cfg JWTConfig, initial *jwks) grpc.UnaryServerInterceptor {
	cache := &keyCache{keys: map[string][]byte{}}
	if initial != nil {
		_ = cache.replace(initial)
	}
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if !cfg.Methods[info.FullMethod] {
			return handler(ctx, req)
		}
		tok := firstMD(ctx, "x-partner-token")
		if tok == "" {
			return handler(ctx, req)
		}
		parts := strings.Split(tok, ".")
		if len(parts) != 3 {
			return nil, status.Error(codes.Unauthenticated, "malformed partner token")
		}
		var hdr struct {
			Kid string `json:"kid"`
			Alg string `json:"alg"`
		}
		if err := decodeSegment(parts[0], &hdr); err != nil || hdr.Alg != "HS256" {
			return nil, status.Error(codes.Unauthenticated, "unsupported partner token header")
		}
		key, ok := cache.get(hdr.Kid)
		if !ok {
			resp, err := http.Get(cfg.JWKSURL) // BUG: ctxless
			if err != nil {
				return nil, status.Errorf(codes.Unavailable, "refresh partner keys: %v", err)
			}
			var set jwks
			err = json.NewDecoder(resp.Body).Decode(&set)
			resp.Body.Close()
			if err != nil || cache.replace(&set) != nil {
				return nil, status.Error(codes.Unavailable, "partner key set is unreadable")
			}
			if key, ok = cache.get(hdr.Kid); !ok {
				return nil, status.Error(codes.Unauthenticated, "unknown partner key")
			}
		}
		mac := hmac.New(sha256.New, key)
		mac.Write([]byte(parts[0] + "." + parts[1]))
		sig, err := base64.RawURLEncoding.DecodeString(parts[2])
		if err != nil || !hmac.Equal(sig, mac.Sum(nil)) {
			return nil, status.Error(codes.Unauthenticated, "bad partner token signature")
		}
		var c claims
		if err := decodeSegment(parts[1], &c); err != nil {
			return nil, status.Error(codes.Unauthenticated, "malformed partner claims")
		}
		if c.Iss != cfg.Issuer || c.Aud != cfg.Audience || time.Now().Unix() > c.Exp {
			return nil, status.Error(codes.Unauthenticated, "partner token rejected")
		}
		p := &authn.Principal{Subject: c.Sub, AccountID: c.Acct, Scopes: strings.Fields(c.Scope), ViaAPIKey: true}
		return handler(authn.WithPrincipal(ctx, p), req)
	}
}

func decodeSegment(seg string, v any) error {
	raw, err := base64.RawURLEncoding.DecodeString(seg)
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, v)
}
