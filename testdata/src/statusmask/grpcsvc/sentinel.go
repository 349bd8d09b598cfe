package grpcsvc

import (
	"context"
	"database/sql"
	"errors"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

var errGone = errors.New("gone")

// Sentinel recognises two errors of its own with errors.Is. Each translation on the branch
// where one holds is no mask; past them, a deadline is still made Internal: reported.
type Sentinel struct{ Server }

func (s *Sentinel) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	name, err := s.lookup(ctx, req.GetId())
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, status.Errorf(codes.NotFound, "no item: %v", err)
		}
		if errors.Is(err, errGone) {
			return nil, status.Errorf(codes.FailedPrecondition, "item gone: %v", err)
		}
		return nil, status.Errorf(codes.Internal, "lookup: %v", err) // want `status\.Errorf gives code codes\.Internal to the error of Server\.lookup`
	}
	return &catalogpb.Item{Name: name}, nil
}

// Canceled asks errors.Is about context.Canceled: told apart. Silent.
type Canceled struct{ Server }

func (s *Canceled) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	name, err := s.lookup(ctx, req.GetId())
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return nil, err
		}
		return nil, status.Errorf(codes.Internal, "lookup: %v", err)
	}
	return &catalogpb.Item{Name: name}, nil
}

// Target asks errors.Is about a target the analysis cannot place: told apart, as far as it
// can tell. Silent.
type Target struct{ Server }

func (s *Target) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	name, err := s.lookup(ctx, req.GetId())
	if err != nil {
		if errors.Is(err, s.expected()) {
			return nil, err
		}
		return nil, status.Errorf(codes.Internal, "lookup: %v", err)
	}
	return &catalogpb.Item{Name: name}, nil
}

func (s *Target) expected() error { return context.DeadlineExceeded }

// Either recognises two errors of its own in one condition (||), and two in one case of a
// switch: those branches translate them, not a deadline; past them, a deadline is still made
// Internal: reported.
type Either struct{ Server }

func (s *Either) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	name, err := s.lookup(ctx, req.GetId())
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) || errors.Is(err, errGone) {
			return nil, status.Errorf(codes.NotFound, "no item: %v", err)
		}
		switch {
		case errors.Is(err, sql.ErrConnDone), errors.Is(err, sql.ErrTxDone):
			return nil, status.Errorf(codes.Unavailable, "db: %v", err)
		}
		return nil, status.Errorf(codes.Internal, "lookup: %v", err) // want `status\.Errorf gives code codes\.Internal to the error of Server\.lookup`
	}
	return &catalogpb.Item{Name: name}, nil
}

// OneOfTwo recognises its own error on one side of an || only: the other side lets a deadline
// through to the branch. Reported.
type OneOfTwo struct{ Server }

func (s *OneOfTwo) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	name, err := s.lookup(ctx, req.GetId())
	if err != nil {
		if errors.Is(err, errGone) || req.GetId() == "" {
			return nil, status.Errorf(codes.FailedPrecondition, "gone: %v", err) // want `status\.Errorf gives code codes\.FailedPrecondition to the error of Server\.lookup`
		}
		return nil, err
	}
	return &catalogpb.Item{Name: name}, nil
}
