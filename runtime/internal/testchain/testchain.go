// Package testchain is the runtime packages' test service: hops of the standard gRPC health
// service, each doing some work and asking the next — a real generated service, so that the
// tests need no code generation of their own.
package testchain

import (
	"context"
	"time"

	"google.golang.org/grpc"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

// Hop is one service of a chain: Check spends Work (or until its ctx is done), then asks Next, if
// any; with DropDeadline it asks Next with a fresh context — the bug the lab finds.
type Hop struct {
	healthpb.UnimplementedHealthServer
	Work         time.Duration
	Next         healthpb.HealthClient
	DropDeadline bool
}

// Register registers h on s, its next hop's client built on next.
func (h *Hop) Register(s *grpc.Server, next grpc.ClientConnInterface) {
	if next != nil {
		h.Next = healthpb.NewHealthClient(next)
	}
	healthpb.RegisterHealthServer(s, h)
}

// Check implements the health service: work, then the next hop.
func (h *Hop) Check(ctx context.Context, req *healthpb.HealthCheckRequest) (*healthpb.HealthCheckResponse, error) {
	if err := work(ctx, h.Work); err != nil {
		return nil, err
	}
	if h.Next == nil {
		return &healthpb.HealthCheckResponse{Status: healthpb.HealthCheckResponse_SERVING}, nil
	}
	downstream := ctx
	if h.DropDeadline {
		downstream = context.Background()
	}
	return h.Next.Check(downstream, req)
}

// Watch streams one status after the hop's work and its next hop's answer.
func (h *Hop) Watch(req *healthpb.HealthCheckRequest, stream grpc.ServerStreamingServer[healthpb.HealthCheckResponse]) error {
	resp, err := h.Check(stream.Context(), req)
	if err != nil {
		return err
	}
	return stream.Send(resp)
}

// work takes d, and fails as soon as ctx ends.
func work(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return status.FromContextError(ctx.Err()).Err()
	}
}
