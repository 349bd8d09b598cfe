package iso

import (
	"context"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	hv1 "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

func New4(s *grpc.Server, b base) {
	hv1.RegisterHealthServer(s, &L01{b})
	hv1.RegisterHealthServer(s, &L02{b})
}

func (b *base) cached(ctx context.Context, id string) (string, error) {
	_ = id
	return "", ErrNotFound
}

// L01: helper handed the error of a function that does no work with its ctx.
func cacheStatus(err error) error {
	return status.Errorf(codes.Internal, "cache: %v", err) // OK
}

type L01 struct{ base }

func (s *L01) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.cached(ctx, req.GetService()); err != nil {
		return nil, cacheStatus(err)
	}
	return ok(), nil
}

// L02: defer-mapping of a named result inline (no helper) — is defer supported at all?
type L02 struct{ base }

func (s *L02) Check(ctx context.Context, req *hv1.HealthCheckRequest) (resp *hv1.HealthCheckResponse, err error) {
	defer func() {
		if err != nil {
			err = status.Errorf(codes.Internal, "l02: %v", err) // OK? not followed (a helper of a helper, a deferred rewrite, a literal in a variable): the catalogue is silent
		}
	}()
	if _, err = s.load(ctx, req.GetService()); err != nil {
		return nil, err
	}
	return ok(), nil
}
