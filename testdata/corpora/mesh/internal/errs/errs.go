// Package errs maps the control plane's domain errors to gRPC codes.
package errs

import (
	"context"
	"errors"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/mesh/internal/pki"
	"example.test/mesh/internal/store"
)

// Code returns the gRPC code for err, or codes.Unknown when err is not one of ours.
func Code(err error) codes.Code {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return codes.DeadlineExceeded
	case errors.Is(err, context.Canceled):
		return codes.Canceled
	case errors.Is(err, store.ErrNotFound):
		return codes.NotFound
	case errors.Is(err, store.ErrConflict):
		return codes.Aborted
	case errors.Is(err, pki.ErrDenied):
		return codes.PermissionDenied
	}
	if s, ok := status.FromError(err); ok {
		return s.Code()
	}
	return codes.Unknown
}
