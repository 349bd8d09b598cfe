package iso

import (
	"context"
	"errors"
	"log"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	hv1 "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

func New3(s *grpc.Server, b base) {
	hv1.RegisterHealthServer(s, &K01{b})
	hv1.RegisterHealthServer(s, &K02{b})
	hv1.RegisterHealthServer(s, &K03{b})
	hv1.RegisterHealthServer(s, &K04{b})
}

// K01: nil-guard first, log, then Internal.
func nilGuard(err error) error {
	if err == nil {
		return nil
	}
	log.Printf("rpc failed: %v", err)
	if errors.Is(err, ErrNotFound) {
		return status.Error(codes.NotFound, "nf")
	}
	return status.Errorf(codes.Internal, "k01: %v", err) // BUG: statusmask
}

type K01 struct{ base }

func (s *K01) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	_, err := s.load(ctx, req.GetService())
	if err != nil {
		return nil, nilGuard(err)
	}
	return ok(), nil
}

// K02: helper gets the handler's result unconditionally: return resp, toStatus(err).
func always(err error) error {
	if err == nil {
		return nil
	}
	return status.Errorf(codes.Internal, "k02: %v", err) // BUG: statusmask
}

type K02 struct{ base }

func (s *K02) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	_, err := s.load(ctx, req.GetService())
	return ok(), always(err)
}

// K03: helper takes ctx but does not use it for telling apart.
func withCtx(ctx context.Context, err error) error {
	log.Printf("%v: %v", ctx.Value("rid"), err)
	return status.Errorf(codes.Internal, "k03: %v", err) // BUG: statusmask
}

type K03 struct{ base }

func (s *K03) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(ctx, req.GetService()); err != nil {
		return nil, withCtx(ctx, err)
	}
	return ok(), nil
}

// K04: method on the server returning (resp, error) directly.
func (s *K04) fail(err error) (*hv1.HealthCheckResponse, error) {
	return nil, status.Errorf(codes.Internal, "k04: %v", err) // BUG: statusmask
}

type K04 struct{ base }

func (s *K04) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(ctx, req.GetService()); err != nil {
		return s.fail(err)
	}
	return ok(), nil
}
