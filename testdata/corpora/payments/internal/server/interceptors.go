package server

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"log"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/payments/internal/ledger"
	"example.test/payments/internal/outbox"
	dbx "example.test/payments/internal/platform/db"
)

// UnaryLogging logs every unary RPC with its status and latency.
func UnaryLogging(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	start := time.Now()
	resp, err := handler(ctx, req)
	slog.InfoContext(ctx, "rpc", "method", info.FullMethod, "code", status.Code(err).String(), "took", time.Since(start)) // OK
	return resp, err
}

// StreamLogging logs every streaming RPC when it ends.
func StreamLogging(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	start := time.Now()
	err := handler(srv, ss)
	slog.InfoContext(ss.Context(), "stream", "method", info.FullMethod, "code", status.Code(err).String(), "took", time.Since(start)) // OK
	return err
}

// UnaryTimeout caps the deadline of every unary RPC at max.
func UnaryTimeout(max time.Duration) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		ctx, cancel := context.WithTimeout(ctx, max) // OK
		defer cancel()
		return handler(ctx, req)
	}
}

// Readiness rejects RPCs while the database is unreachable, so that the load
// balancer moves traffic to a healthy replica.
func Readiness(pool *sql.DB) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if strings.HasPrefix(info.FullMethod, "/grpc.health.v1.Health/") {
			return handler(ctx, req)
		}
		if err := dbx.Healthy(pool); err != nil { // BUG: ctxbackground
			return nil, status.Error(codes.Unavailable, "database unavailable")
		}
		return handler(ctx, req)
	}
}

func isMutation(fullMethod string) bool {
	name := fullMethod[strings.LastIndex(fullMethod, "/")+1:]
	for _, prefix := range []string{"Create", "Capture", "Refund", "Post", "Close", "Import"} {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

// UnaryAudit writes an audit event for every mutating RPC.
func UnaryAudit(w *outbox.Writer) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		resp, err := handler(ctx, req)
		if isMutation(info.FullMethod) {
			ev := outbox.NewEvent(ledger.NewID("aud"), "audit.rpc", info.FullMethod, map[string]any{
				"method": info.FullMethod,
				"code":   status.Code(err).String(),
			})
			actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
			// ^BUG: detach
			go func() {
				defer cancel()
				if werr := w.Append(actx, ev); werr != nil {
					log.Printf("audit %s: %v", info.FullMethod, werr)
				}
			}()
		}
		return resp, err
	}
}

// PanicReporter sends recovered panics to the error tracker.
type PanicReporter struct {
	URL string
	HC  *http.Client
}

// Report posts one panic.
func (p *PanicReporter) Report(ctx context.Context, method string, v any) {
	body, _ := json.Marshal(map[string]string{"method": method, "panic": fmt.Sprint(v)})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.URL, bytes.NewReader(body))
	if err != nil {
		return
	}
	resp, err := p.HC.Do(req)
	if err != nil {
		log.Printf("panic report: %v", err)
		return
	}
	resp.Body.Close()
}

// UnaryRecover turns a panic in a unary handler into codes.Internal.
func UnaryRecover(rep *PanicReporter) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (resp any, err error) {
		defer func() {
			if r := recover(); r != nil {
				rep.Report(ctx, info.FullMethod, r) // OK
				err = status.Error(codes.Internal, "internal error")
			}
		}()
		return handler(ctx, req)
	}
}

// StreamRecover turns a panic in a streaming handler into codes.Internal.
func StreamRecover(rep *PanicReporter) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) (err error) {
		defer func() {
			if r := recover(); r != nil {
				rep.Report(context.Background(), info.FullMethod, r) // BUG: ctxbackground
				err = status.Error(codes.Internal, "internal error")
			}
		}()
		return handler(srv, ss)
	}
}
