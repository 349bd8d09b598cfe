package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

type merchantKey struct{}

// MerchantFrom returns the authenticated merchant of a request.
func MerchantFrom(ctx context.Context) (string, bool) {
	m, ok := ctx.Value(merchantKey{}).(string)
	return m, ok
}

// APIKey is a merchant's API credential.
type APIKey struct {
	ID         string
	MerchantID string
	Revoked    bool
}

// Authenticator authenticates API keys. Its Unary and Stream methods are the
// server's authentication interceptors.
type Authenticator struct {
	db  *sql.DB
	ctx context.Context

	mu    sync.RWMutex
	cache map[string]*APIKey
}

// NewAuthenticator preloads the active keys. ctx is the server's lifetime.
func NewAuthenticator(ctx context.Context, pool *sql.DB) (*Authenticator, error) {
	a := &Authenticator{db: pool, ctx: ctx, cache: make(map[string]*APIKey)}
	lctx, cancel := context.WithTimeout(ctx, 5*time.Second) // OK
	defer cancel()
	if err := a.preload(lctx); err != nil {
		return nil, fmt.Errorf("preload api keys: %w", err)
	}
	return a, nil
}

func bearer(ctx context.Context) (string, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	for _, v := range md.Get("authorization") {
		if tok, ok := strings.CutPrefix(v, "Bearer "); ok && tok != "" {
			return tok, nil
		}
	}
	return "", status.Error(codes.Unauthenticated, "missing bearer token")
}

// Unary authenticates unary RPCs.
func (a *Authenticator) Unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	raw, err := bearer(ctx)
	if err != nil {
		return nil, err
	}
	key, err := a.lookup(ctx, raw) // OK
	if err != nil {
		return nil, err
	}
	if err := a.touch(a.ctx, key.ID); err != nil { // BUG: ctxflow
		log.Printf("touch api key %s: %v", key.ID, err)
	}
	return handler(context.WithValue(ctx, merchantKey{}, key.MerchantID), req) // OK
}

type authedStream struct {
	grpc.ServerStream
	ctx context.Context
}

func (s *authedStream) Context() context.Context { return s.ctx }

// Stream authenticates streaming RPCs.
func (a *Authenticator) Stream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	raw, err := bearer(ss.Context())
	if err != nil {
		return err
	}
	key, err := a.lookup(context.Background(), raw) // BUG: ctxbackground
	if err != nil {
		return err
	}
	return handler(srv, &authedStream{ServerStream: ss, ctx: context.WithValue(ss.Context(), merchantKey{}, key.MerchantID)})
}

func (a *Authenticator) lookup(ctx context.Context, raw string) (*APIKey, error) {
	a.mu.RLock()
	key, ok := a.cache[raw]
	a.mu.RUnlock()
	if !ok {
		var k APIKey
		err := a.db.QueryRowContext(ctx, `SELECT id, merchant_id, revoked FROM api_keys WHERE secret_hash = digest($1, 'sha256')`, raw).
			Scan(&k.ID, &k.MerchantID, &k.Revoked)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, status.Error(codes.Unauthenticated, "unknown api key")
		}
		if err != nil {
			return nil, status.Errorf(codes.Internal, "api key lookup: %v", err)
		}
		key = &k
		a.mu.Lock()
		a.cache[raw] = key
		a.mu.Unlock()
	}
	if key.Revoked {
		return nil, status.Error(codes.PermissionDenied, "api key revoked")
	}
	return key, nil
}

func (a *Authenticator) touch(ctx context.Context, keyID string) error {
	_, err := a.db.ExecContext(ctx, `UPDATE api_keys SET last_used_at = now() WHERE id = $1`, keyID)
	return err
}

func (a *Authenticator) preload(ctx context.Context) error {
	rows, err := a.db.QueryContext(ctx, `SELECT id, merchant_id, revoked, secret_hash_hex FROM api_keys WHERE NOT revoked`)
	if err != nil {
		return err
	}
	defer rows.Close()
	a.mu.Lock()
	defer a.mu.Unlock()
	for rows.Next() {
		var k APIKey
		var hash string
		if err := rows.Scan(&k.ID, &k.MerchantID, &k.Revoked, &hash); err != nil {
			return err
		}
		a.cache["sha256:"+hash] = &k
	}
	return rows.Err()
}

// Throttle rate-limits each merchant with a token bucket. Its Unary and
// Stream methods are interceptors.
type Throttle struct {
	rate    float64
	burst   float64
	maxWait time.Duration

	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

// NewThrottle allows rate requests per second per merchant, bursting to burst.
func NewThrottle(rate float64, burst int, maxWait time.Duration) *Throttle {
	return &Throttle{rate: rate, burst: float64(burst), maxWait: maxWait, buckets: make(map[string]*bucket)}
}

// reserve takes a token and returns how long the caller must wait for it.
func (t *Throttle) reserve(merchant string, now time.Time) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	b, ok := t.buckets[merchant]
	if !ok {
		b = &bucket{tokens: t.burst, last: now}
		t.buckets[merchant] = b
	}
	b.tokens = min(t.burst, b.tokens+now.Sub(b.last).Seconds()*t.rate)
	b.last = now
	b.tokens--
	if b.tokens >= 0 {
		return 0
	}
	return time.Duration(-b.tokens / t.rate * float64(time.Second))
}

// Unary throttles unary RPCs.
func (t *Throttle) Unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	merchant, _ := MerchantFrom(ctx)
	wait := t.reserve(merchant, time.Now())
	if wait > t.maxWait {
		return nil, status.Error(codes.ResourceExhausted, "rate limit exceeded")
	}
	if wait > 0 {
		time.Sleep(wait) // OK: time.Sleep: a rate limiter's single deliberate wait, in no loop (ctxless reports a sleep only in a loop that can turn without checking a ctx; precision issue)
	}
	return handler(ctx, req)
}

// Stream throttles the start of streaming RPCs.
func (t *Throttle) Stream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	ctx := ss.Context()
	merchant, _ := MerchantFrom(ctx)
	wait := t.reserve(merchant, time.Now())
	if wait > t.maxWait {
		return status.Error(codes.ResourceExhausted, "rate limit exceeded")
	}
	if wait > 0 {
		timer := time.NewTimer(wait)
		defer timer.Stop()
		select {
		case <-ctx.Done():
			return status.FromContextError(ctx.Err()).Err()
		case <-timer.C: // OK
		}
	}
	return handler(srv, ss)
}
