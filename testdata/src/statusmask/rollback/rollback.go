// Package rollback translates the error of a call whose failure the handler rolls back. When the
// rollback, made after it with the request's ctx, succeeded, the ctx was not done: a ctx that is
// done stays done and work given it fails. The first error was not the request's deadline.
package rollback

import (
	"context"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Snapshots is a cloud API; no implementation is in sight, so its calls may do anything.
type Snapshots interface {
	Create(ctx context.Context, id string) error
	EnableRestores(ctx context.Context, id string) error
	Delete(ctx context.Context, id string) (bool, error)
	Ping(ctx context.Context) error
}

// memo never refers to its ctx: its success says nothing of the ctx.
type memo struct{ m map[string]bool }

func (m *memo) Forget(ctx context.Context, id string) error { delete(m.m, id); return nil }

type Server struct {
	catalogpb.UnimplementedCatalogServer
	snaps Snapshots
	memo  *memo
}

// GetItem rolls a snapshot back when its fast restores fail.
func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	id := req.GetId()
	if err := s.snaps.EnableRestores(ctx, id); err != nil {
		if _, derr := s.snaps.Delete(ctx, id); derr != nil {
			return nil, status.Errorf(codes.Internal, "delete %s: %v", id, derr) // want `status\.Errorf gives code codes\.Internal to the error of Snapshots\.Delete`
		}
		return nil, status.Errorf(codes.Internal, "restores of %s: %v", id, err) // the delete after it succeeded: silent
	}
	return &catalogpb.Item{Id: id}, nil
}

// Careless is served too; its rollbacks prove nothing of the ctx.
type Careless struct {
	catalogpb.UnimplementedCatalogServer
	snaps Snapshots
	memo  *memo
}

func (s *Careless) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	id := req.GetId()
	if err := s.snaps.Ping(ctx); err != nil {
		return nil, status.Error(codes.Unavailable, "snapshots unreachable")
	}
	// Ping succeeded before Create: the ctx may have ended since.
	if err := s.snaps.Create(ctx, id); err != nil {
		return nil, status.Errorf(codes.Internal, "create %s: %v", id, err) // want `status\.Errorf gives code codes\.Internal to the error of Snapshots\.Create`
	}
	if err := s.snaps.EnableRestores(ctx, id); err != nil {
		// The rollback runs detached: its success says nothing of the request's ctx.
		if _, derr := s.snaps.Delete(context.WithoutCancel(ctx), id); derr == nil {
			return nil, status.Errorf(codes.Internal, "restores of %s: %v", id, err) // want `status\.Errorf gives code codes\.Internal to the error of Snapshots\.EnableRestores`
		}
		return nil, status.Error(codes.Internal, "rollback failed")
	}
	if err := s.snaps.EnableRestores(ctx, id); err != nil {
		// An in-memory rollback that never looks at its ctx.
		if ferr := s.memo.Forget(ctx, id); ferr != nil {
			return nil, status.Error(codes.Internal, "forget failed")
		}
		return nil, status.Errorf(codes.Internal, "restores of %s: %v", id, err) // want `status\.Errorf gives code codes\.Internal to the error of Snapshots\.EnableRestores`
	}
	if err := s.snaps.EnableRestores(ctx, id); err != nil {
		// The rollback's error is dropped: whether it succeeded is not known.
		_, _ = s.snaps.Delete(ctx, id)
		return nil, status.Errorf(codes.Internal, "restores of %s: %v", id, err) // want `status\.Errorf gives code codes\.Internal to the error of Snapshots\.EnableRestores`
	}
	return &catalogpb.Item{Id: id}, nil
}

// Batch enables restores of many snapshots, rolling each back on a failure.
type Batch struct {
	catalogpb.UnimplementedCatalogServer
	snaps Snapshots
}

func (s *Batch) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	ids := []string{req.GetId(), req.GetId() + "-replica"}
	for _, id := range ids {
		if err := s.snaps.EnableRestores(ctx, id); err != nil {
			if _, derr := s.snaps.Delete(ctx, id); derr == nil {
				return nil, status.Errorf(codes.Internal, "restores of %s: %v", id, err) // this turn's delete succeeded after it: silent
			}
		}
	}
	deleted := false
	for _, id := range ids {
		// A success on an earlier turn says nothing of the ctx on this one.
		err := s.snaps.EnableRestores(ctx, id)
		if err != nil && deleted {
			return nil, status.Errorf(codes.Internal, "restores of %s: %v", id, err) // want `status\.Errorf gives code codes\.Internal to the error of Snapshots\.EnableRestores`
		}
		_, derr := s.snaps.Delete(ctx, id)
		deleted = derr == nil
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}
