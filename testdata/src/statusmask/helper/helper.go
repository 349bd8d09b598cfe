// Package helper is a catalog service whose handlers turn their errors into statuses through
// mapping helpers of the package. A helper that gives a constant code to every error it does
// not recognise masks the request's deadline when a handler hands it one: reported in the
// helper, once. A helper that asks what the error is — status.FromError, errors.Is with a
// context error, ctx.Err() — is trusted, and so is every helper no handler hands such an error.
package helper

import (
	"context"
	"errors"
	"fmt"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

var ErrNotFound = errors.New("not found")

type store interface {
	Load(ctx context.Context, id string) (*catalogpb.Item, error)
}

type Server struct {
	catalogpb.UnimplementedCatalogServer
	store store
}

// GetItem hands the store's error to toStatus, which recognises only its own sentinel.
func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	item, err := s.store.Load(ctx, req.GetId())
	if err != nil {
		return nil, toStatus(err)
	}
	return item, nil
}

// ListItems hands toStatus a store error too: the finding in toStatus is not repeated.
func (s *Server) ListItems(req *catalogpb.ListItemsRequest, stream grpc.ServerStreamingServer[catalogpb.Item]) error {
	item, err := s.store.Load(stream.Context(), req.GetCategory())
	if err != nil {
		return toStatus(err)
	}
	return stream.Send(item)
}

func toStatus(err error) error {
	switch {
	case errors.Is(err, ErrNotFound):
		return status.Error(codes.NotFound, "item not found")
	default:
		return status.Errorf(codes.Internal, "load: %v", err) // want `status\.Errorf gives code codes\.Internal to err, which Server\.GetItem hands it from the error of store\.Load and may be the request's deadline or cancellation`
	}
}

// Watched hands its error to a helper that keeps a context error's code.
type Watched struct{ Server }

func (s *Watched) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	item, err := s.store.Load(ctx, req.GetId())
	if err != nil {
		return nil, keepCtx(err)
	}
	return item, nil
}

func keepCtx(err error) error {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return status.FromContextError(err).Err()
	}
	return status.Error(codes.Internal, err.Error())
}

// Converted hands its error to a helper that asks the error's own status first.
type Converted struct{ Server }

func (s *Converted) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	item, err := s.store.Load(ctx, req.GetId())
	if err != nil {
		return nil, convert(err)
	}
	return item, nil
}

func convert(err error) error {
	if st, ok := status.FromError(err); ok {
		return st.Err()
	}
	return status.Error(codes.Internal, err.Error())
}

// Checked asks ctx.Err() before it hands the error on: the helper sees no deadline.
type Checked struct{ Server }

func (s *Checked) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	item, err := s.store.Load(ctx, req.GetId())
	if err != nil {
		if ctx.Err() != nil {
			return nil, status.FromContextError(ctx.Err()).Err()
		}
		return nil, toStatus(err)
	}
	return item, nil
}

// Parsed hands the helper an error of a call that takes no ctx: no deadline in it.
type Parsed struct{ Server }

func (s *Parsed) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if err := parse(req.GetId()); err != nil {
		return nil, invalid(err)
	}
	return s.store.Load(ctx, req.GetId())
}

func parse(id string) error {
	if id == "" {
		return errors.New("empty id")
	}
	return nil
}

func invalid(err error) error {
	return status.Errorf(codes.InvalidArgument, "id: %v", err)
}

// Wrapped hands the helper an error it wraps: the helper masks it all the same.
type Wrapped struct{ Server }

func (s *Wrapped) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	item, err := s.store.Load(ctx, req.GetId())
	if err != nil {
		return nil, unavailable(fmt.Errorf("catalog: %w", err), req.GetId())
	}
	return item, nil
}

func unavailable(err error, id string) error {
	return status.Error(codes.Unavailable, id+": "+err.Error()) // want `status\.Error gives code codes\.Unavailable to err, which Wrapped\.GetItem hands it from the error of store\.Load`
}

// Recursive unwraps its error in a helper that calls itself: reported once, in the helper.
type Recursive struct{ Server }

func (s *Recursive) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	item, err := s.store.Load(ctx, req.GetId())
	if err != nil {
		return nil, s.unwrapped(err, 3)
	}
	return item, nil
}

func (s *Recursive) unwrapped(err error, depth int) error {
	if inner := errors.Unwrap(err); inner != nil && depth > 0 {
		return s.unwrapped(inner, depth-1)
	}
	return status.Error(codes.Aborted, err.Error()) // want `status\.Error gives code codes\.Aborted to err, which Recursive\.GetItem hands it`
}

// Valued calls its helper through a function value: not followed (the value could be any
// function), and silent.
type Valued struct {
	Server
	mapErr func(error) error
}

func (s *Valued) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	item, err := s.store.Load(ctx, req.GetId())
	if err != nil {
		return nil, s.mapErr(err)
	}
	return item, nil
}

// Joined hands its helper a list of errors: only an error parameter is followed.
type Joined struct{ Server }

func (s *Joined) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	item, err := s.store.Load(ctx, req.GetId())
	if err != nil {
		return nil, joined(err, errors.New("second"))
	}
	return item, nil
}

func joined(errs ...error) error {
	return status.Error(codes.Internal, errors.Join(errs...).Error())
}

// Generic hands its error to a generic helper: followed into its generic body.
type Generic struct{ Server }

func (s *Generic) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	return must(s.store.Load(ctx, req.GetId()))
}

func must[T any](v T, err error) (T, error) {
	if err != nil {
		var zero T
		return zero, status.Errorf(codes.Internal, "must: %v", err) // want `status\.Errorf gives code codes\.Internal to err, which Generic\.GetItem hands it from the error of store\.Load`
	}
	return v, nil
}

// Recursing hands its error to a helper that calls itself on the same error with a smaller
// budget: the call of itself tells nothing of the error, and its translation is reported.
type Recursing struct{ Server }

func (s *Recursing) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	item, err := s.store.Load(ctx, req.GetId())
	if err != nil {
		return nil, recur(err, 2)
	}
	return item, nil
}

func recur(err error, depth int) error {
	if depth > 0 {
		return recur(err, depth-1)
	}
	return status.Error(codes.Internal, err.Error()) // want `status\.Error gives code codes\.Internal to err, which Recursing\.GetItem hands it from the error of store\.Load`
}

// Unwrapping hands its error to a helper that recognises its own sentinel, then unwraps the
// error and calls itself on what it wraps: past both, the error is made Internal.
type Unwrapping struct{ Server }

func (s *Unwrapping) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	item, err := s.store.Load(ctx, req.GetId())
	if err != nil {
		return nil, unwrapStatus(err)
	}
	return item, nil
}

func unwrapStatus(err error) error {
	if errors.Is(err, ErrNotFound) {
		return status.Error(codes.NotFound, "not found")
	}
	if inner := errors.Unwrap(err); inner != nil {
		return unwrapStatus(inner)
	}
	return status.Errorf(codes.Internal, "unwrap: %v", err) // want `status\.Errorf gives code codes\.Internal to err, which Unwrapping\.GetItem hands it`
}
