package deadlines_test

import (
	"context"
	"fmt"
	"time"

	"google.golang.org/grpc"

	"github.com/deadlinelint/deadlinelint/runtime/deadlines"
)

// A client interceptor gives every unary call without a deadline a default one; a call with a
// deadline keeps its own.
func ExampleUnaryClientInterceptor() {
	intercept := deadlines.UnaryClientInterceptor(5 * time.Second)
	invoker := func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, opts ...grpc.CallOption) error {
		_, ok := ctx.Deadline()
		fmt.Printf("%s sent with a deadline: %v\n", method, ok)
		return nil
	}
	_ = intercept(context.Background(), "/orders.v1.Orders/Get", nil, nil, nil, invoker)
	// Output: /orders.v1.Orders/Get sent with a deadline: true
}

// A server interceptor runs a request that arrived without a deadline as if it had one.
func ExampleUnaryServerInterceptor() {
	intercept := deadlines.UnaryServerInterceptor(10 * time.Second)
	handler := func(ctx context.Context, req any) (any, error) {
		dl, ok := ctx.Deadline()
		fmt.Printf("deadline: %v, within 10s: %v\n", ok, time.Until(dl) <= 10*time.Second)
		return nil, nil
	}
	_, _ = intercept(context.Background(), nil, &grpc.UnaryServerInfo{FullMethod: "/orders.v1.Orders/Get"}, handler)
	// Output: deadline: true, within 10s: true
}
