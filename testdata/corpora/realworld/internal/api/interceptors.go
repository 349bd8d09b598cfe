package api

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/auth"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/logging"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/recovery"
	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"

	"example.test/realworld/internal/cache"
	"example.test/realworld/internal/store"
	"example.test/realworld/internal/telemetry"
)

// AuditStore receives one row per mutating call.
type AuditStore interface {
	AppendAudit(ctx context.Context, e store.AuditEntry) error
}

// ServerOptions returns the interceptor chain of ordersd.
func ServerOptions(log *zap.Logger, authn *Authenticator, c *cache.Cache, audit AuditStore) []grpc.ServerOption {
	onPanic := recovery.WithRecoveryHandlerContext(func(ctx context.Context, p any) error {
		log.Error("panic in handler", zap.Any("panic", p), zap.String("trace_id", telemetry.TraceID(ctx)), zap.Stack("stack"))
		return status.Error(codes.Internal, "internal error")
	})
	logger := InterceptorLogger(log.Named("grpc"))
	return []grpc.ServerOption{
		grpc.ChainUnaryInterceptor(
			recovery.UnaryServerInterceptor(onPanic),
			logging.UnaryServerInterceptor(logger, logging.WithLogOnEvents(logging.FinishCall)),
			auth.UnaryServerInterceptor(authn.Authenticate),
			RateLimit(c, 50),
			Idempotency(c, log),
			Audit(audit, log),
		),
		grpc.ChainStreamInterceptor(
			recovery.StreamServerInterceptor(onPanic),
			logging.StreamServerInterceptor(logger, logging.WithLogOnEvents(logging.StartCall, logging.FinishCall)),
			auth.StreamServerInterceptor(authn.Authenticate),
			requireClaims,
		),
	}
}

// InterceptorLogger adapts zap to the go-grpc-middleware logging interface.
func InterceptorLogger(l *zap.Logger) logging.Logger {
	l = l.WithOptions(zap.AddCallerSkip(1))
	return logging.LoggerFunc(func(ctx context.Context, lvl logging.Level, msg string, fields ...any) {
		zf := make([]zap.Field, 0, len(fields)/2+1)
		for i := 0; i+1 < len(fields); i += 2 {
			zf = append(zf, zap.Any(fmt.Sprint(fields[i]), fields[i+1]))
		}
		if id := telemetry.TraceID(ctx); id != "" {
			zf = append(zf, zap.String("trace_id", id))
		}
		switch lvl {
		case logging.LevelDebug:
			l.Debug(msg, zf...)
		case logging.LevelInfo:
			l.Info(msg, zf...)
		case logging.LevelWarn:
			l.Warn(msg, zf...)
		default:
			l.Error(msg, zf...)
		}
	})
}

// Authenticator verifies the HMAC-signed bearer tokens issued by the
// storefront and checks them against the revocation list in Redis.
type Authenticator struct {
	key   []byte
	cache *cache.Cache
	now   func() time.Time
}

// NewAuthenticator returns an authenticator for tokens signed with key.
func NewAuthenticator(key []byte, c *cache.Cache) *Authenticator {
	return &Authenticator{key: key, cache: c, now: time.Now}
}

// Authenticate is the go-grpc-middleware auth function.
func (a *Authenticator) Authenticate(ctx context.Context) (context.Context, error) {
	token, err := auth.AuthFromMD(ctx, "bearer")
	if err != nil {
		return nil, err
	}
	claims, err := a.verify(token)
	if err != nil {
		return nil, status.Error(codes.Unauthenticated, err.Error())
	}
	revoked, err := a.cache.IsRevoked(ctx, claims.ID)
	if err != nil {
		return nil, status.Error(codes.Unavailable, "cannot check token revocation")
	}
	if revoked {
		return nil, status.Error(codes.Unauthenticated, "token revoked")
	}
	return context.WithValue(ctx, claimsKey{}, claims), nil
}

func (a *Authenticator) verify(token string) (Claims, error) {
	payload, sig, ok := strings.Cut(token, ".")
	if !ok {
		return Claims{}, fmt.Errorf("malformed token")
	}
	mac := hmac.New(sha256.New, a.key)
	mac.Write([]byte(payload))
	want := base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
	if !hmac.Equal([]byte(want), []byte(sig)) {
		return Claims{}, fmt.Errorf("bad signature")
	}
	raw, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil {
		return Claims{}, fmt.Errorf("malformed token: %w", err)
	}
	var c Claims
	if err := json.Unmarshal(raw, &c); err != nil {
		return Claims{}, fmt.Errorf("malformed token: %w", err)
	}
	if a.now().Unix() > c.Expires {
		return Claims{}, fmt.Errorf("token expired")
	}
	return c, nil
}

func mutating(fullMethod string) bool {
	m := fullMethod[strings.LastIndexByte(fullMethod, '/')+1:]
	for _, p := range []string{"Create", "Cancel", "Confirm", "Ship", "Refund", "Replay"} {
		if strings.HasPrefix(m, p) {
			return true
		}
	}
	return false
}

func firstMD(ctx context.Context, key string) string {
	if v := metadata.ValueFromIncomingContext(ctx, key); len(v) > 0 {
		return v[0]
	}
	return ""
}

// RateLimit allows perSecond calls per caller. A caller over the limit waits
// a little before being rejected, which smooths short bursts from retries.
func RateLimit(c *cache.Cache, perSecond int) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		bucket := "anonymous"
		if cl, ok := ClaimsFrom(ctx); ok {
			bucket = cl.Subject
		}
		for attempt := 0; ; attempt++ {
			ok, err := c.Allow(ctx, bucket, perSecond, time.Second) // OK
			if err != nil || ok {
				break // fail open when Redis is unavailable
			}
			if attempt == 2 {
				return nil, status.Error(codes.ResourceExhausted, "rate limit exceeded")
			}
			time.Sleep(time.Duration(50<<attempt) * time.Millisecond) // BUG: ctxless
		}
		return handler(ctx, req)
	}
}

// Idempotency answers a repeated mutating call that carries the same
// idempotency-key header with the stored response of the first one.
func Idempotency(c *cache.Cache, log *zap.Logger) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		key := firstMD(ctx, "idempotency-key")
		if key == "" || !mutating(info.FullMethod) {
			return handler(ctx, req)
		}
		if b, ok, err := c.LoadResponse(ctx, key, info.FullMethod); err == nil && ok {
			var stored anypb.Any
			if err := proto.Unmarshal(b, &stored); err == nil {
				if m, err := stored.UnmarshalNew(); err == nil {
					return m, nil
				}
			}
		}
		resp, err := handler(ctx, req)
		if err != nil {
			return nil, err
		}
		if m, ok := resp.(proto.Message); ok {
			if packed, perr := anypb.New(m); perr == nil {
				b, _ := proto.Marshal(packed)
				if serr := c.StoreResponse(context.Background(), key, info.FullMethod, b); serr != nil { // BUG: ctxbackground
					log.Warn("store idempotent response", zap.String("method", info.FullMethod), zap.Error(serr))
				}
			}
		}
		return resp, nil
	}
}

// Audit writes one audit row per mutating call.
func Audit(audit AuditStore, log *zap.Logger) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		resp, err := handler(ctx, req)
		if !mutating(info.FullMethod) {
			return resp, err
		}
		entry := store.AuditEntry{
			OrderID: orderIDOf(req),
			Actor:   actor(ctx),
			Action:  info.FullMethod,
			Detail:  status.Code(err).String(),
			TraceID: telemetry.TraceID(ctx),
		}
		// The audit row records what was attempted even when the caller hung
		// up mid-call; one second is plenty for a single insert.
		actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second) // OK
		defer cancel()
		if aerr := audit.AppendAudit(actx, entry); aerr != nil {
			log.Warn("audit", zap.String("method", info.FullMethod), zap.Error(aerr))
		}
		return resp, err
	}
}

func orderIDOf(req any) string {
	if r, ok := req.(interface{ GetOrderId() string }); ok {
		return r.GetOrderId()
	}
	return ""
}

// requireClaims rejects streams that reached the handler without claims.
func requireClaims(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	if _, ok := ClaimsFrom(ss.Context()); !ok {
		return status.Errorf(codes.Unauthenticated, "%s needs a token", info.FullMethod)
	}
	return handler(srv, ss)
}
