package grpcx

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Sentinel errors of the cluster.
var (
	ErrCollectionNotFound  = errors.New("collection not found")
	ErrCollectionNotLoaded = errors.New("collection not loaded")
	ErrSegmentNotFound     = errors.New("segment not found")
	ErrShardNotServing     = errors.New("shard not serving")
	ErrRateLimited         = errors.New("rate limited")
)

// Status translates an internal error to a gRPC status error, keeping
// deadline and cancellation codes.
func Status(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := status.FromError(err); ok {
		return err
	}
	return status.Error(Code(err), err.Error())
}

// Code returns the gRPC code for an internal error.
func Code(err error) codes.Code {
	switch {
	case err == nil:
		return codes.OK
	case errors.Is(err, context.DeadlineExceeded):
		return codes.DeadlineExceeded
	case errors.Is(err, context.Canceled):
		return codes.Canceled
	case errors.Is(err, ErrCollectionNotFound), errors.Is(err, ErrSegmentNotFound):
		return codes.NotFound
	case errors.Is(err, ErrCollectionNotLoaded):
		return codes.FailedPrecondition
	case errors.Is(err, ErrShardNotServing):
		return codes.Unavailable
	case errors.Is(err, ErrRateLimited):
		return codes.ResourceExhausted
	}
	return status.Code(err)
}

// IsUnavailable reports whether err says the peer could not be reached.
func IsUnavailable(err error) bool {
	return status.Code(err) == codes.Unavailable || errors.Is(err, errClosed)
}

// Wrap adds context to err, keeping it matchable.
func Wrap(err error, format string, args ...any) error {
	return fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), err)
}
