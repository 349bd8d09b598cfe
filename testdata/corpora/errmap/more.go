package main

import (
	"context"
	"errors"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	hv1 "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

func registerMore(s *grpc.Server, b base) {
	hv1.RegisterHealthServer(s, &M01{b})
	hv1.RegisterHealthServer(s, &M02{b})
	hv1.RegisterHealthServer(s, &M03{b})
	hv1.RegisterHealthServer(s, &M04{b})
	hv1.RegisterHealthServer(s, &M05{b})
	hv1.RegisterHealthServer(s, &M06{b})
	hv1.RegisterHealthServer(s, &M07{b})
	hv1.RegisterHealthServer(s, &M08{b})
	hv1.RegisterHealthServer(s, &M09{b})
	hv1.RegisterHealthServer(s, &M10{b})
	hv1.RegisterHealthServer(s, &M11{b})
	hv1.RegisterHealthServer(s, &M12{b})
	hv1.RegisterHealthServer(s, &M13{b})
}

// ---- D01/D02: shared helper, first caller safe (ctx.Err()), second unsafe.
func sharedStatus(err error) error {
	return status.Errorf(codes.Internal, "shared: %v", err) // BUG: statusmask (related should be M02)
}

type M01 struct{ base }

func (s *M01) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(ctx, req.GetService()); err != nil {
		if ctx.Err() != nil {
			return nil, status.FromContextError(ctx.Err()).Err()
		}
		return nil, sharedStatus(err)
	}
	return ok(), nil
}

type M02 struct{ base }

func (s *M02) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(ctx, req.GetService()); err != nil {
		return nil, sharedStatus(err)
	}
	return ok(), nil
}

// ---- D03: helper tests err == sentinel (not errors.Is) then Internal.
func eqStatus(err error) error {
	if err == ErrNotFound {
		return status.Error(codes.NotFound, "nf")
	}
	return status.Errorf(codes.Internal, "eq: %v", err) // BUG: statusmask
}

type M03 struct{ base }

func (s *M03) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(ctx, req.GetService()); err != nil {
		return nil, eqStatus(err)
	}
	return ok(), nil
}

// ---- D04: helper passes through errors with GRPCStatus (type assertion), else Internal.
func grpcPass(err error) error {
	if _, isStatus := err.(interface{ GRPCStatus() *status.Status }); isStatus {
		return err
	}
	return status.Errorf(codes.Internal, "pass: %v", err) // BUG: statusmask
}

type M04 struct{ base }

func (s *M04) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(ctx, req.GetService()); err != nil {
		return nil, grpcPass(err)
	}
	return ok(), nil
}

// ---- D05: %w in status.Errorf, derived WithTimeout ctx.
func wStatus(err error) error {
	return status.Errorf(codes.Unavailable, "w: %v", err) // BUG: statusmask
}

type M05 struct{ base }

func (s *M05) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	cctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if _, err := s.load(cctx, req.GetService()); err != nil {
		return nil, wStatus(err)
	}
	return ok(), nil
}

// ---- D06: generic helper.
func must[T any](v T, err error) (T, error) {
	if err != nil {
		var zero T
		return zero, status.Errorf(codes.Internal, "must: %v", err) // BUG: statusmask
	}
	return v, nil
}

type M06 struct{ base }

func (s *M06) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := must(s.load(ctx, req.GetService())); err != nil {
		return nil, err
	}
	return ok(), nil
}

// ---- D07: streaming handler (Watch) using a helper.
func watchStatus(err error) error {
	return status.Errorf(codes.Internal, "watch: %v", err) // BUG: statusmask
}

type M07 struct{ base }

func (s *M07) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	return ok(), nil
}

func (s *M07) Watch(req *hv1.HealthCheckRequest, stream grpc.ServerStreamingServer[hv1.HealthCheckResponse]) error {
	ctx := stream.Context()
	if _, err := s.load(ctx, req.GetService()); err != nil {
		return watchStatus(err)
	}
	return stream.Send(ok())
}

// ---- D08: recursive helper (Unwrap loop) — crash probe.
func recStatus(err error) error {
	if errors.Is(err, ErrNotFound) {
		return status.Error(codes.NotFound, "nf")
	}
	if u := errors.Unwrap(err); u != nil {
		return recStatus(u)
	}
	return status.Errorf(codes.Internal, "rec: %v", err) // BUG: statusmask
}

type M08 struct{ base }

func (s *M08) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(ctx, req.GetService()); err != nil {
		return nil, recStatus(err)
	}
	return ok(), nil
}

// ---- D09: handler checks status.Code(err) itself before helper; helper shared with M10 (unsafe).
func codeShared(err error) error {
	return status.Errorf(codes.Internal, "cs: %v", err) // BUG: statusmask (related should be M10)
}

type M09 struct{ base }

func (s *M09) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(ctx, req.GetService()); err != nil {
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			return nil, status.FromContextError(err).Err()
		}
		return nil, codeShared(err)
	}
	return ok(), nil
}

type M10 struct{ base }

func (s *M10) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(ctx, req.GetService()); err != nil {
		return nil, codeShared(err)
	}
	return ok(), nil
}

// ---- D11: helper's code from a variable of constants.
func varCode(err error) error {
	code := codes.Internal
	if errors.Is(err, ErrNotFound) {
		code = codes.NotFound
	}
	return status.Error(code, err.Error()) // OK?
}

type M11 struct{ base }

func (s *M11) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(ctx, req.GetService()); err != nil {
		return nil, varCode(err)
	}
	return ok(), nil
}

// ---- D12: helper with errors.As of a module type then Internal.
type ValidationError struct{ Field string }

func (e *ValidationError) Error() string { return "invalid " + e.Field }

func asStatus(err error) error {
	var ve *ValidationError
	if errors.As(err, &ve) {
		return status.Error(codes.InvalidArgument, ve.Error())
	}
	return status.Errorf(codes.Internal, "as: %v", err) // OK? (spec lists errors.As as telling apart)
}

type M12 struct{ base }

func (s *M12) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(ctx, req.GetService()); err != nil {
		return nil, asStatus(err)
	}
	return ok(), nil
}

// ---- D13: helper used in an errgroup-like closure inside the handler.
func closureStatus(err error) error {
	return status.Errorf(codes.Internal, "closure: %v", err) // BUG: statusmask
}

type M13 struct{ base }

func (s *M13) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	get := func(id string) error {
		if _, err := s.load(ctx, id); err != nil {
			return closureStatus(err)
		}
		return nil
	}
	if err := get(req.GetService()); err != nil {
		return nil, err
	}
	return ok(), nil
}
