package server

import (
	"context"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"example.test/legacy/internal/db"
	"example.test/legacy/internal/util"
)

type requestIDKey struct{}

func requestIDFrom(ctx context.Context) string {
	if v, ok := ctx.Value(requestIDKey{}).(string); ok {
		return v
	}
	if md, ok := metadata.FromIncomingContext(ctx); ok {
		if v := md.Get("x-request-id"); len(v) > 0 {
			return v[0]
		}
	}
	return newID()
}

func isMutation(method string) bool {
	i := strings.LastIndex(method, "/")
	name := method[i+1:]
	for _, p := range []string{"Get", "List", "Stream", "Export"} {
		if strings.HasPrefix(name, p) {
			return false
		}
	}
	return true
}

// UnaryInterceptor adds the request id, logs the call and audits mutations.
func UnaryInterceptor(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	start := time.Now()
	rid := requestIDFrom(ctx)
	ctx = context.WithValue(ctx, requestIDKey{}, rid)

	resp, err := handler(ctx, req)

	code := status.Code(err)
	logger.Printf("%s rid=%s code=%s took=%s", info.FullMethod, rid, code, time.Since(start))
	if isMutation(info.FullMethod) {
		// the audit row has to exist even when the caller hung up before we finished
		actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second) // OK
		go func() {
			defer cancel()
			if _, aerr := db.DB.ExecContext(actx, `INSERT INTO rpc_audit (request_id, method, code, took_ms, at) VALUES ($1, $2, $3, $4, now())`,
				rid, info.FullMethod, code.String(), time.Since(start).Milliseconds()); aerr != nil {
				logger.Printf("audit %s: %v", rid, aerr)
			}
		}()
	}
	return resp, err
}

// Auth checks the session token of app calls; service-to-service calls carry x-internal.
func Auth(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	if len(md.Get("x-internal")) > 0 {
		return handler(ctx, req)
	}
	tok := ""
	if v := md.Get("authorization"); len(v) > 0 {
		tok = strings.TrimPrefix(v[0], "Bearer ")
	}
	if tok == "" {
		return nil, status.Error(codes.Unauthenticated, "missing token")
	}
	member, err := util.Redis.Get(appCtx, "session:"+tok).Result() // BUG: ctxflow
	if err != nil || member == "" {
		return nil, status.Error(codes.Unauthenticated, "invalid session")
	}
	ctx = metadata.AppendToOutgoingContext(ctx, "x-member", member)
	return handler(ctx, req)
}

// RateLimit allows perSecond calls per method and second.
func RateLimit(perSecond int) grpc.UnaryServerInterceptor {
	var (
		mu     sync.Mutex
		window = map[string]int{}
		reset  = time.Now()
	)
	allow := func(method string) bool {
		mu.Lock()
		defer mu.Unlock()
		if time.Since(reset) > time.Second {
			window = map[string]int{}
			reset = time.Now()
		}
		window[method]++
		return window[method] <= perSecond
	}
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if !allow(info.FullMethod) {
			// back off once before rejecting, the tills retry too aggressively otherwise
			time.Sleep(250 * time.Millisecond) // OK: time.Sleep: a single deliberate back-off before rejecting, in no loop (ctxless reports a sleep only in a loop that can turn without checking a ctx; precision issue)
			if !allow(info.FullMethod) {
				return nil, status.Error(codes.ResourceExhausted, "slow down")
			}
		}
		return handler(ctx, req)
	}
}

// StreamInterceptor records stream sessions for the kiosk dashboard.
func StreamInterceptor(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	var sessionID int64
	err := db.DB.QueryRowContext(context.Background(), `INSERT INTO stream_sessions (method, opened_at) VALUES ($1, now()) RETURNING id`, info.FullMethod).Scan(&sessionID) // BUG: ctxbackground
	if err != nil {
		logger.Printf("stream session %s: %v", info.FullMethod, err)
	}
	err = handler(srv, ss)
	if sessionID != 0 {
		if _, cerr := db.DB.ExecContext(ss.Context(), `UPDATE stream_sessions SET closed_at = now() WHERE id = $1`, sessionID); cerr != nil {
			logger.Printf("stream session %d: %v", sessionID, cerr)
		}
	}
	return err
}
