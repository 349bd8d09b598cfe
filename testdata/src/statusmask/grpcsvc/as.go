package grpcsvc

import (
	"context"
	"errors"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// conflictError is the store's own error type: no ctx's error is one.
type conflictError struct{ key string }

func (e *conflictError) Error() string { return "conflict on " + e.key }

// AsConcrete recognises its own error type with errors.As: the translation on the branch where
// it holds is no mask; past it, a deadline is still made Internal: reported.
type AsConcrete struct{ Server }

func (s *AsConcrete) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	name, err := s.lookup(ctx, req.GetId())
	if err != nil {
		var conflict *conflictError
		if errors.As(err, &conflict) {
			return nil, status.Errorf(codes.Aborted, "conflict: %v", err)
		}
		return nil, status.Errorf(codes.Internal, "lookup: %v", err) // want `status\.Errorf gives code codes\.Internal to the error of Server\.lookup`
	}
	return &catalogpb.Item{Name: name}, nil
}

// AsInterface asks errors.As for an interface a ctx's deadline error satisfies (it has
// Timeout): told apart. Silent.
type AsInterface struct{ Server }

func (s *AsInterface) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	name, err := s.lookup(ctx, req.GetId())
	if err != nil {
		var timeout interface{ Timeout() bool }
		if errors.As(err, &timeout) && timeout.Timeout() {
			return nil, status.Error(codes.DeadlineExceeded, err.Error())
		}
		return nil, status.Errorf(codes.Internal, "lookup: %v", err)
	}
	return &catalogpb.Item{Name: name}, nil
}
