package proxy

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"example.test/vectordb/gen/vdbpb"
	"example.test/vectordb/internal/lifecycle"
	"example.test/vectordb/internal/log"
	"example.test/vectordb/internal/metrics"
)

type credEntry struct {
	hash   string
	expire time.Time
}

// credCache is a read-through cache of credentials kept by the root
// coordinator. Entries expire after ttl and are fetched again.
type credCache struct {
	rootc vdbpb.RootCoordClient
	ttl   time.Duration
	mu    sync.RWMutex
	m     map[string]credEntry
}

func newCredCache(rootc vdbpb.RootCoordClient, ttl time.Duration) *credCache {
	return &credCache{rootc: rootc, ttl: ttl, m: map[string]credEntry{}}
}

func (c *credCache) Get(ctx context.Context, user string) (string, error) {
	c.mu.RLock()
	e, ok := c.m[user]
	c.mu.RUnlock()
	if ok && time.Now().Before(e.expire) {
		return e.hash, nil
	}
	resp, err := c.rootc.GetCredential(ctx, &vdbpb.GetCredentialRequest{Username: user})
	if err != nil {
		return "", err
	}
	c.mu.Lock()
	c.m[user] = credEntry{hash: resp.GetPasswordHash(), expire: time.Now().Add(c.ttl)}
	c.mu.Unlock()
	return resp.GetPasswordHash(), nil
}

func basicAuth(ctx context.Context) (user, pass string, ok bool) {
	md, _ := metadata.FromIncomingContext(ctx)
	v := md.Get("authorization")
	if len(v) == 0 || !strings.HasPrefix(v[0], "Basic ") {
		return "", "", false
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(v[0], "Basic "))
	if err != nil {
		return "", "", false
	}
	user, pass, ok = strings.Cut(string(raw), ":")
	return user, pass, ok
}

func checkHash(hash, pass string) bool {
	sum := sha256.Sum256([]byte(pass))
	return hex.EncodeToString(sum[:]) == hash
}

// AuthInterceptor checks the caller's basic-auth credentials.
func AuthInterceptor(creds *credCache) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		user, pass, ok := basicAuth(ctx)
		if !ok {
			return nil, status.Error(codes.Unauthenticated, "missing credentials")
		}
		hash, err := creds.Get(context.TODO(), user) // BUG: ctxbackground ALSO: missingdeadline — a read-through cache: the fetch on a miss or an expired entry is the request's own work
		if err != nil {
			return nil, status.Errorf(codes.Unauthenticated, "auth %s: %v", user, err) // OK: statusmask — the call was made with a fresh context, not the request's
		}
		if !checkHash(hash, pass) {
			return nil, status.Error(codes.Unauthenticated, "bad password")
		}
		return handler(ctx, req)
	}
}

// limiter is a token bucket per method.
type limiter struct {
	mu      sync.Mutex
	rate    float64
	burst   float64
	tokens  map[string]float64
	last    map[string]time.Time
	penalty time.Duration
}

func newLimiter(rate, burst float64, penalty time.Duration) *limiter {
	return &limiter{rate: rate, burst: burst, tokens: map[string]float64{}, last: map[string]time.Time{}, penalty: penalty}
}

func (l *limiter) allow(method string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	t, ok := l.tokens[method]
	if !ok {
		t = l.burst
	}
	t = min(l.burst, t+now.Sub(l.last[method]).Seconds()*l.rate)
	l.last[method] = now
	if t < 1 {
		l.tokens[method] = t
		return false
	}
	l.tokens[method] = t - 1
	return true
}

// Unary is the rate-limiting interceptor. A rejected caller is slowed down
// once before it is told to back off.
func (l *limiter) Unary() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if !l.allow(info.FullMethod) {
			metrics.ProxyRejected.Add(ctx, 1, metrics.Attr{K: "method", V: info.FullMethod})
			time.Sleep(l.penalty) // OK: ctxless — a single rate-limiter penalty sleep, not a poll or a retry loop
			return nil, status.Error(codes.ResourceExhausted, "rate limited")
		}
		return handler(ctx, req)
	}
}

// ReadyInterceptor holds requests until the proxy is Healthy.
func ReadyInterceptor(b *lifecycle.Base) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		for !b.Running() {
			if err := ctx.Err(); err != nil {
				return nil, status.FromContextError(err).Err()
			}
			time.Sleep(50 * time.Millisecond) // OK: ctxless — every turn of the loop checks ctx.Err()
		}
		return handler(ctx, req)
	}
}

// TraceInterceptor attaches the caller's trace id and counts the request.
func TraceInterceptor(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	id := log.TraceIDFromIncoming(ctx)
	if id == "" {
		id = log.NewTraceID()
	}
	ctx = log.WithTraceID(ctx, id)
	start := time.Now()
	resp, err := handler(ctx, req)
	metrics.ProxyRequests.Add(context.Background(), 1, metrics.Attr{K: "method", V: info.FullMethod}, metrics.Attr{K: "code", V: status.Code(err).String()}) // OK: ctxbackground — a root used only for a metric record
	log.Ctx(ctx).Debug("request", log.String("method", info.FullMethod), log.Duration("took", time.Since(start)))
	return resp, err
}

// StreamTraceInterceptor measures streaming calls.
func StreamTraceInterceptor(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	_, span := log.StartSpan(context.Background(), info.FullMethod) // OK: ctxbackground — a span started, the ctx the tracer returns is dropped
	defer span.End()
	return handler(srv, ss)
}
