package iso

import (
	"context"
	"errors"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	hv1 "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

func New2(s *grpc.Server, b base) {
	hv1.RegisterHealthServer(s, &J01{b})
	hv1.RegisterHealthServer(s, &J02{b})
	hv1.RegisterHealthServer(s, &J03{b})
}

// J01: the || sentinel test inline in the handler (no helper).
type J01 struct{ base }

func (s *J01) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(ctx, req.GetService()); err != nil {
		if errors.Is(err, ErrNotFound) || errors.Is(err, ErrConflict) {
			return nil, status.Error(codes.FailedPrecondition, err.Error()) // OK
		}
		return nil, status.Errorf(codes.Internal, "j01: %v", err) // BUG: statusmask
	}
	return ok(), nil
}

// J02: switch-case with two sentinels in a helper.
func switchStatus(err error) error {
	switch {
	case errors.Is(err, ErrNotFound), errors.Is(err, ErrConflict):
		return status.Error(codes.FailedPrecondition, err.Error()) // OK
	default:
		return status.Errorf(codes.Internal, "j02: %v", err) // BUG: statusmask
	}
}

type J02 struct{ base }

func (s *J02) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(ctx, req.GetService()); err != nil {
		return nil, switchStatus(err)
	}
	return ok(), nil
}

// J03: nested ifs equivalent of ||.
func nestedStatus(err error) error {
	if errors.Is(err, ErrNotFound) {
		return status.Error(codes.NotFound, err.Error()) // OK
	}
	if errors.Is(err, ErrConflict) {
		return status.Error(codes.AlreadyExists, err.Error()) // OK
	}
	return status.Errorf(codes.Internal, "j03: %v", err) // BUG: statusmask
}

type J03 struct{ base }

func (s *J03) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(ctx, req.GetService()); err != nil {
		return nil, nestedStatus(err)
	}
	return ok(), nil
}
