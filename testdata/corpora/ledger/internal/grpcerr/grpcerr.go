// Package grpcerr maps internal errors to gRPC status errors.
package grpcerr

import (
	"context"
	"database/sql"
	"errors"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/ledger/internal/store"
)

// From converts err into a status error suitable for returning from a
// handler. Context errors keep their meaning so clients can tell a timeout
// from a server fault.
func From(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := status.FromError(err); ok {
		return err
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return status.Error(codes.DeadlineExceeded, err.Error())
	case errors.Is(err, context.Canceled):
		return status.Error(codes.Canceled, err.Error())
	case errors.Is(err, store.ErrNotFound), errors.Is(err, sql.ErrNoRows):
		return status.Error(codes.NotFound, err.Error())
	case errors.Is(err, store.ErrInsufficientFunds):
		return status.Error(codes.FailedPrecondition, err.Error())
	case errors.Is(err, store.ErrConflict):
		return status.Error(codes.Aborted, err.Error())
	default:
		return status.Error(codes.Internal, err.Error())
	}
}
