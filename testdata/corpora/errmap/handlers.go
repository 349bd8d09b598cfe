package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"example.com/errmap/internal/errmap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	hv1 "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

func ok() *hv1.HealthCheckResponse {
	return &hv1.HealthCheckResponse{Status: hv1.HealthCheckResponse_SERVING}
}

// ---- C01/C02: spec's own example helper, reached from two handlers: one report.
func toStatus(err error) error {
	switch {
	case errors.Is(err, ErrNotFound):
		return status.Error(codes.NotFound, "not found")
	default:
		return status.Errorf(codes.Internal, "load: %v", err) // BUG: statusmask
	}
}

type H01 struct{ base }

func (s *H01) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(ctx, req.GetService()); err != nil {
		return nil, toStatus(err)
	}
	return ok(), nil
}

type H02 struct{ base }

func (s *H02) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, "select 1").Scan(&n); err != nil {
		return nil, toStatus(err)
	}
	return ok(), nil
}

// ---- C03: helper checks status.FromError / FromContextError first.
func toStatusFrom(err error) error {
	if st, ok := status.FromError(err); ok {
		return st.Err()
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return status.FromContextError(err).Err()
	}
	return status.Errorf(codes.Internal, "load: %v", err) // OK
}

type H03 struct{ base }

func (s *H03) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(ctx, req.GetService()); err != nil {
		return nil, toStatusFrom(err)
	}
	return ok(), nil
}

// ---- C04: handler checks ctx.Err() before handing the error to the helper.
func toStatusNoCheck(err error) error {
	return status.Errorf(codes.Internal, "query: %v", err) // OK
}

type H04 struct{ base }

func (s *H04) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(ctx, req.GetService()); err != nil {
		if ctx.Err() != nil {
			return nil, status.FromContextError(ctx.Err()).Err()
		}
		return nil, toStatusNoCheck(err)
	}
	return ok(), nil
}

// ---- C05: helper only handed validation errors (no ctx).
func validationStatus(err error) error {
	return status.Errorf(codes.InvalidArgument, "invalid: %v", err) // OK
}

func validate(req *hv1.HealthCheckRequest) error {
	if req.GetService() == "" {
		return errors.New("service required")
	}
	return nil
}

type H05 struct{ base }

func (s *H05) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if err := validate(req); err != nil {
		return nil, validationStatus(err)
	}
	if _, err := s.load(ctx, req.GetService()); err != nil {
		return nil, err
	}
	return ok(), nil
}

// ---- C06: helper translates only sql.ErrNoRows, returns err unchanged otherwise.
func notFoundOnly(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return status.Errorf(codes.NotFound, "no row: %v", err) // OK
	}
	return err
}

type H06 struct{ base }

func (s *H06) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(ctx, req.GetService()); err != nil {
		return nil, notFoundOnly(err)
	}
	return ok(), nil
}

// ---- C07: helper in another package of the module (spec: trusted).
type H07 struct{ base }

func (s *H07) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(ctx, req.GetService()); err != nil {
		return nil, errmap.ToStatus(err) // OK?
	}
	return ok(), nil
}

// ---- C08: helper returning codes.Code.
func codeOf(err error) codes.Code {
	if errors.Is(err, ErrNotFound) {
		return codes.NotFound
	}
	return codes.Internal // OK?
}

type H08 struct{ base }

func (s *H08) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(ctx, req.GetService()); err != nil {
		return nil, status.Error(codeOf(err), err.Error()) // OK?
	}
	return ok(), nil
}

// ---- C09: wrapped error handed to the helper.
func wrapStatus(err error) error {
	if errors.Is(err, ErrNotFound) {
		return status.Error(codes.NotFound, err.Error())
	}
	return status.Error(codes.Internal, err.Error()) // BUG: statusmask
}

type H09 struct{ base }

func (s *H09) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(ctx, req.GetService()); err != nil {
		return nil, wrapStatus(fmt.Errorf("load %q: %w", req.GetService(), err))
	}
	return ok(), nil
}

// ---- C10: method helper.
type H10 struct{ base }

func (s *H10) toStatus(err error) error {
	return status.Errorf(codes.Unavailable, "h10: %v", err) // BUG: statusmask
}

func (s *H10) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(ctx, req.GetService()); err != nil {
		return nil, s.toStatus(err)
	}
	return ok(), nil
}

// ---- C11: helper reached via a second helper.
func mapErr(err error) error {
	if err == nil {
		return nil
	}
	return innerStatus(err)
}

func innerStatus(err error) error {
	return status.Errorf(codes.Internal, "inner: %v", err) // OK? not followed (a helper of a helper, a deferred rewrite, a literal in a variable): the catalogue is silent
}

type H11 struct{ base }

func (s *H11) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(ctx, req.GetService()); err != nil {
		return nil, mapErr(err)
	}
	return ok(), nil
}

// ---- C12: helper with op name and text test of the error (NotFound words).
func opStatus(op string, err error) error {
	if strings.Contains(err.Error(), "not found") {
		return status.Errorf(codes.NotFound, "%s: %v", op, err)
	}
	return status.Errorf(codes.Internal, "%s failed: %v", op, err) // BUG: statusmask
}

type H12 struct{ base }

func (s *H12) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	hreq, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://upstream/health", nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(hreq)
	if err != nil {
		return nil, opStatus("upstream", err)
	}
	resp.Body.Close()
	return ok(), nil
}

// ---- C13: helper rules out both texts with Contains(..., "context").
func textStatus(err error) error {
	if strings.Contains(err.Error(), "context") {
		return err
	}
	return status.Errorf(codes.Internal, "text: %v", err) // OK
}

type H13 struct{ base }

func (s *H13) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(ctx, req.GetService()); err != nil {
		return nil, textStatus(err)
	}
	return ok(), nil
}

// ---- C14: switch on status.Code(err) in the helper.
func codeSwitch(err error) error {
	switch status.Code(err) {
	case codes.NotFound:
		return err
	default:
		return status.Errorf(codes.Internal, "rpc: %v", err) // OK
	}
}

type H14 struct{ base }

func (s *H14) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	cc, err := grpc.NewClient("upstream:443")
	if err != nil {
		return nil, err
	}
	defer cc.Close()
	if _, err := hv1.NewHealthClient(cc).Check(ctx, req); err != nil {
		return nil, codeSwitch(err)
	}
	return ok(), nil
}

// ---- C15: helper with a constant message (error not in message or cause).
func opaqueStatus(err error) error {
	_ = err
	return status.Error(codes.Internal, "internal error") // OK
}

type H15 struct{ base }

func (s *H15) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(ctx, req.GetService()); err != nil {
		return nil, opaqueStatus(err)
	}
	return ok(), nil
}

// ---- C16: request ctx's own error handed to a helper.
func abortStatus(err error) error {
	return status.Errorf(codes.Aborted, "aborted: %v", err) // BUG: statusmask
}

type H16 struct{ base }

func (s *H16) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if err := ctx.Err(); err != nil {
		return nil, abortStatus(err)
	}
	return ok(), nil
}

// ---- C17: named result mapped in a defer.
func deferStatus(err error) error {
	return status.Errorf(codes.Internal, "deferred: %v", err) // OK? not followed (a helper of a helper, a deferred rewrite, a literal in a variable): the catalogue is silent
}

type H17 struct{ base }

func (s *H17) Check(ctx context.Context, req *hv1.HealthCheckRequest) (resp *hv1.HealthCheckResponse, err error) {
	defer func() {
		if err != nil {
			err = deferStatus(err)
		}
	}()
	if _, err = s.load(ctx, req.GetService()); err != nil {
		return nil, err
	}
	return ok(), nil
}

// ---- C18: func-literal helper in a package variable.
var litStatus = func(err error) error {
	return status.Errorf(codes.Internal, "lit: %v", err) // OK? not followed (a helper of a helper, a deferred rewrite, a literal in a variable): the catalogue is silent
}

type H18 struct{ base }

func (s *H18) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(ctx, req.GetService()); err != nil {
		return nil, litStatus(err)
	}
	return ok(), nil
}

// ---- C19: helper handed error of a call made with a fresh context.
func freshStatus(err error) error {
	return status.Errorf(codes.Internal, "fresh: %v", err) // OK
}

type H19 struct{ base }

func (s *H19) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(context.Background(), req.GetService()); err != nil {
		return nil, freshStatus(err)
	}
	return ok(), nil
}

// ---- C20: helper checks only errors.Is(err, context.DeadlineExceeded).
func dlStatus(err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return status.Error(codes.DeadlineExceeded, err.Error())
	}
	return status.Errorf(codes.Internal, "dl: %v", err) // OK
}

type H20 struct{ base }

func (s *H20) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(ctx, req.GetService()); err != nil {
		return nil, dlStatus(err)
	}
	return ok(), nil
}

// ---- C21: helper takes ctx too and checks ctx.Err() itself.
func ctxStatus(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return status.FromContextError(ctx.Err()).Err()
	}
	return status.Errorf(codes.Internal, "ctx: %v", err) // OK
}

type H21 struct{ base }

func (s *H21) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(ctx, req.GetService()); err != nil {
		return nil, ctxStatus(ctx, err)
	}
	return ok(), nil
}

// ---- C22: helper with a module sentinel table, Internal fallback, error as cause via %w.
var table = map[error]codes.Code{ErrNotFound: codes.NotFound}

func tableStatus(err error) error {
	for sentinel, c := range table {
		if errors.Is(err, sentinel) {
			return status.Error(c, err.Error())
		}
	}
	return status.Error(codes.Internal, fmt.Sprintf("table: %v", err)) // BUG: statusmask
}

type H22 struct{ base }

func (s *H22) Check(ctx context.Context, req *hv1.HealthCheckRequest) (*hv1.HealthCheckResponse, error) {
	if _, err := s.load(ctx, req.GetService()); err != nil {
		return nil, tableStatus(err)
	}
	return ok(), nil
}

// ---- C23: interceptor maps the handler's error through a helper.
func icStatus(err error) error {
	return status.Errorf(codes.Internal, "ic: %v", err) // BUG: statusmask — an interceptor is a request scope: the handler's deadline made Internal in its helper
}

func mapInterceptor(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	resp, err := handler(ctx, req)
	if err != nil {
		return nil, icStatus(err)
	}
	return resp, nil
}

// ---- C24: helper used outside any request scope only.
func jobStatus(err error) error {
	return status.Errorf(codes.Internal, "job: %v", err) // OK
}

func worker(db *sql.DB) {
	ctx := context.Background()
	var n int
	if err := db.QueryRowContext(ctx, "select 1").Scan(&n); err != nil {
		_ = jobStatus(err)
	}
}
