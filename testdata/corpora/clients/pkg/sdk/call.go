package sdk

import (
	"context"
	"errors"
	"fmt"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// Invoke calls a unary method by name on cc. It exists for tools that need
// methods the generated stubs of this SDK do not have yet.
func Invoke[Resp any, PResp interface {
	*Resp
	proto.Message
}](ctx context.Context, cc grpc.ClientConnInterface, method string, req proto.Message, opts ...grpc.CallOption) (PResp, error) {
	resp := PResp(new(Resp))
	if err := cc.Invoke(ctx, method, req, resp, opts...); err != nil { // OK
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	return resp, nil
}

// callWithTimeout runs one unary call of a generated client under its own
// timeout.
func callWithTimeout[Req, Resp any](ctx context.Context, d time.Duration, call func(context.Context, Req, ...grpc.CallOption) (Resp, error), req Req) (Resp, error) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	return call(ctx, req)
}

// retry runs fn up to attempts times while it fails with a retryable status,
// waiting backoff (doubled each time) in between.
func retry(ctx context.Context, attempts int, backoff time.Duration, fn func() error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = fn(); err == nil || !retryable(err) {
			return err
		}
		t := time.NewTimer(backoff)
		select {
		case <-ctx.Done():
			t.Stop()
			return errors.Join(err, ctx.Err())
		case <-t.C:
		}
		backoff *= 2
	}
	return err
}

func retryable(err error) bool {
	switch status.Code(err) {
	case codes.Unavailable, codes.ResourceExhausted, codes.Aborted:
		return true
	}
	return false
}
