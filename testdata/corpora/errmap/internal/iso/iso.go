package iso

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	hv1 "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

var ErrNotFound = errors.New("not found")
var ErrConflict = errors.New("conflict")

type base struct {
	hv1.UnimplementedHealthServer
	db *sql.DB
}

func (b *base) load(ctx context.Context, id string) (string, error) {
	var v string
	err := b.db.QueryRowContext(ctx, "select v from t where id = ?", id).Scan(&v)
	return v, err
}

func ok() *hv1.HealthCheckResponse { return &hv1.HealthCheckResponse{} }

func New(s *grpc.Server, db *sql.DB) {
	b := base{db: db}
	hv1.RegisterHealthServer(s, &I01{b})
	hv1.RegisterHealthServer(s, &I02{b})
	hv1.RegisterHealthServer(s, &I03{b})
	hv1.RegisterHealthServer(s, &I04{b})
	hv1.RegisterHealthServer(s, &I05{b})
	hv1.RegisterHealthServer(s, &I06{b})
	hv1.RegisterHealthServer(s, &I07{b})
	New2(s, b)
	New3(s, b)
	New4(s, b)
}

// I01: non-generic helper taking (v, err) in f(g()) form.
func check(v string, err error) (string, error) {
	if err != nil {
		return "", status.Errorf(codes.Internal, "check: %v", err) // BUG: statusmask
	}
	return v, nil
}

type I01 struct{ base }

func (s *I01) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := check(s.load(ctx, req.GetService())); err != nil {
		return nil, err
	}
	return ok(), nil
}

// I02: generic helper with explicit args.
func mustG[T any](v T, err error) (T, error) {
	if err != nil {
		var zero T
		return zero, status.Errorf(codes.Internal, "mustG: %v", err) // BUG: statusmask
	}
	return v, nil
}

type I02 struct{ base }

func (s *I02) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	v, err := s.load(ctx, req.GetService())
	if _, err := mustG(v, err); err != nil {
		return nil, err
	}
	return ok(), nil
}

// I03: recursion-free Unwrap helper.
func unwrapStatus(err error) error {
	if errors.Is(err, ErrNotFound) {
		return status.Error(codes.NotFound, "nf")
	}
	return status.Errorf(codes.Internal, "unwrap: %v", err) // BUG: statusmask
}

type I03 struct{ base }

func (s *I03) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(ctx, req.GetService()); err != nil {
		return nil, unwrapStatus(err)
	}
	return ok(), nil
}

// I04: self-recursive helper without Unwrap (recursion on wrapped err).
func recur(err error, depth int) error {
	if depth > 0 {
		return recur(err, depth-1)
	}
	return status.Errorf(codes.Internal, "recur: %v", err) // BUG: statusmask
}

type I04 struct{ base }

func (s *I04) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(ctx, req.GetService()); err != nil {
		return nil, recur(err, 2)
	}
	return ok(), nil
}

// I05: Sprintf message, two module sentinels named (no table).
func sprintfStatus(err error) error {
	if errors.Is(err, ErrNotFound) || errors.Is(err, ErrConflict) {
		return status.Error(codes.FailedPrecondition, err.Error()) // OK
	}
	return status.Error(codes.Internal, fmt.Sprintf("sp: %v", err)) // BUG: statusmask
}

type I05 struct{ base }

func (s *I05) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(ctx, req.GetService()); err != nil {
		return nil, sprintfStatus(err)
	}
	return ok(), nil
}

// I06: sentinel list in a slice, loop with errors.Is.
var known = []error{ErrNotFound, ErrConflict}

func sliceStatus(err error) error {
	for _, k := range known {
		if errors.Is(err, k) {
			return status.Error(codes.FailedPrecondition, err.Error())
		}
	}
	return status.Errorf(codes.Internal, "slice: %v", err) // BUG: statusmask
}

type I06 struct{ base }

func (s *I06) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(ctx, req.GetService()); err != nil {
		return nil, sliceStatus(err)
	}
	return ok(), nil
}

// I07: two-level helper where the outer one does its own sentinel check.
func outer(err error) error {
	if errors.Is(err, ErrNotFound) {
		return status.Error(codes.NotFound, "nf")
	}
	return inner2(err)
}

func inner2(err error) error {
	return status.Errorf(codes.Internal, "inner2: %v", err) // OK? not followed (a helper of a helper, a deferred rewrite, a literal in a variable): the catalogue is silent
}

type I07 struct{ base }

func (s *I07) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(ctx, req.GetService()); err != nil {
		return nil, outer(err)
	}
	return ok(), nil
}
