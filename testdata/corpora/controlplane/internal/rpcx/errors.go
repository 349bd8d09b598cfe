package rpcx

import (
	"context"
	"errors"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// ErrConflict is returned by stores when a write lost an optimistic race.
var ErrConflict = errors.New("version conflict")

// Code picks the gRPC code for err, keeping deadlines and cancellations.
func Code(err error) codes.Code {
	switch {
	case err == nil:
		return codes.OK
	case errors.Is(err, context.DeadlineExceeded):
		return codes.DeadlineExceeded
	case errors.Is(err, context.Canceled):
		return codes.Canceled
	case errors.Is(err, ErrConflict):
		return codes.Aborted
	}
	if s, ok := status.FromError(err); ok {
		return s.Code()
	}
	return codes.Unknown
}

// ToStatus converts err into a status error with the code Code picks.
func ToStatus(err error) error {
	if err == nil {
		return nil
	}
	c := Code(err)
	if c == codes.Unknown {
		c = codes.Internal
	}
	return status.Error(c, err.Error())
}
