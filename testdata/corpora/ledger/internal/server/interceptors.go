package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"runtime/debug"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"example.test/ledger/internal/obs"
)

// MaxHandlerTime caps how long any unary handler may run, whatever deadline
// the client sent (or if it sent none).
const MaxHandlerTime = 10 * time.Second

func requestID(ctx context.Context) string {
	if md, ok := metadata.FromIncomingContext(ctx); ok {
		if v := md.Get("x-request-id"); len(v) > 0 && v[0] != "" {
			return v[0]
		}
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// UnaryInterceptor adds a request id, caps the deadline, recovers panics,
// logs, and makes sure context errors surface with the right code.
func UnaryInterceptor(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (resp any, err error) {
	ctx = obs.WithRequestID(ctx, requestID(ctx))
	if dl, ok := ctx.Deadline(); !ok || time.Until(dl) > MaxHandlerTime {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, MaxHandlerTime)
		defer cancel()
	}
	start := time.Now()
	defer func() {
		if r := recover(); r != nil {
			obs.L(ctx).Error("panic", "method", info.FullMethod, "panic", r, "stack", string(debug.Stack()))
			err = status.Error(codes.Internal, "internal error")
		}
		obs.Since(info.FullMethod, start)
		code := status.Code(err)
		obs.L(ctx).Info("rpc", "method", info.FullMethod, "code", code.String(), "dur", time.Since(start))
	}()

	resp, err = handler(ctx, req)
	if err != nil && status.Code(err) == codes.Unknown {
		switch {
		case errors.Is(err, context.DeadlineExceeded):
			err = status.Error(codes.DeadlineExceeded, err.Error())
		case errors.Is(err, context.Canceled):
			err = status.Error(codes.Canceled, err.Error())
		}
	}
	return resp, err
}

type wrappedStream struct {
	grpc.ServerStream
	ctx context.Context
}

func (w *wrappedStream) Context() context.Context { return w.ctx }

// StreamInterceptor attaches a request id to streaming RPCs. Streams are
// long-lived by design, so no deadline cap is applied here.
func StreamInterceptor(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	ctx := obs.WithRequestID(ss.Context(), requestID(ss.Context()))
	start := time.Now()
	err := handler(srv, &wrappedStream{ServerStream: ss, ctx: ctx})
	obs.L(ctx).Info("stream", "method", info.FullMethod, "code", status.Code(err).String(), "dur", time.Since(start))
	return err
}
