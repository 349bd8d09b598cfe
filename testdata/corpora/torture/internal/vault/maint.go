package vault

import (
	"context"
	"errors"
	"iter"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	vaultv1 "example.test/torture/gen/vault/v1"
	"example.test/torture/internal/ctxkit"
	"example.test/torture/internal/store"
)

// Restore copies secrets back from a named snapshot.
func (s *Server) Restore(ctx context.Context, req *vaultv1.RestoreRequest) (resp *vaultv1.RestoreResponse, err error) {
	defer func() {
		if r := recover(); r != nil {
			s.log.ErrorContext(ctx, "restore panicked", "panic", r)                                // OK
			_ = s.audit.Record(context.Background(), "system", "restore-panic", req.GetSnapshot()) // BUG: ctxbackground
			resp, err = nil, status.Error(codes.Internal, "restore failed")
		}
	}()

	var budgets [2]context.Context
	var cancels [2]context.CancelFunc
	budgets[0], cancels[0] = context.WithTimeout(ctx, readBudget)
	budgets[1], cancels[1] = context.WithTimeout(ctx, writeBudget)
	defer cancels[0]()
	defer cancels[1]()

	snapshot := ctxkit.Bind(budgets[0], func(ctx context.Context, id string) (*store.Secret, error) {
		return s.repo.Snapshot(ctx, req.GetSnapshot(), id) // OK
	})
	save := (*store.Repo).SaveSecret
	resp = &vaultv1.RestoreResponse{}
	for _, id := range req.GetIds() {
		attempts := 0
	again:
		sec, err := snapshot(id)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			if attempts++; attempts < 3 && isTransient(err) {
				time.Sleep(restoreBackoff) // BUG: ctxless
				goto again
			}
			return nil, toStatus(err)
		}
		sec.Version = 0
		if _, err := save(s.repo, budgets[1], sec); err != nil { // OK
			return nil, toStatus(err)
		}
		resp.Restored++
	}
	return resp, nil
}

// Compact purges a tenant's soft-deleted secrets.
func (s *Server) Compact(ctx context.Context, req *vaultv1.CompactRequest) (*vaultv1.CompactResponse, error) {
	if req.GetTenant() == "" {
		return nil, status.Error(codes.InvalidArgument, "tenant is required")
	}
	mctx, cancel := s.maintenanceCtx()
	defer cancel()
	before, err := s.repo.Count(mctx) // BUG: ctxflow
	if err != nil {
		return nil, toStatus(err)
	}
	removed, err := ctxkit.WithBudget(compactBudget, func(ctx context.Context) (int64, error) { // BUG: ctxbackground
		return s.repo.PurgeTenant(ctx, req.GetTenant()) // OK
	})
	if err != nil {
		return nil, toStatus(err)
	}
	next, stop := iter.Pull2(s.repo.Secrets(ctx, req.GetTenant()+"/")) // OK
	defer stop()
	for i := 0; i < 3; i++ {
		sec, err, ok := next()
		if !ok || err != nil {
			break
		}
		s.log.DebugContext(ctx, "survivor", "id", sec.ID, "before", before)
	}
	s.emit("compact", req.GetTenant(), ctx) // OK
	return &vaultv1.CompactResponse{Removed: int32(removed)}, nil
}
