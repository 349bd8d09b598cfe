// Package status is a type-checking stub of google.golang.org/grpc/status.
package status

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/grpc/codes"
)

// Status represents an RPC status code, message, and details.
type Status struct {
	code codes.Code
	msg  string
}

// Code returns the status code contained in s.
func (s *Status) Code() codes.Code {
	if s == nil {
		return codes.OK
	}
	return s.code
}

// Message returns the message contained in s.
func (s *Status) Message() string {
	if s == nil {
		return ""
	}
	return s.msg
}

// Err returns an immutable error representing s; returns nil if s.Code() is OK.
func (s *Status) Err() error {
	if s.Code() == codes.OK {
		return nil
	}
	return &statusError{s: s}
}

// Details returns a slice of details messages attached to the status.
func (s *Status) Details() []any { return nil }

// String returns a string representation of s.
func (s *Status) String() string {
	return fmt.Sprintf("rpc error: code = %s desc = %s", s.Code(), s.Message())
}

type statusError struct{ s *Status }

func (e *statusError) Error() string { return e.s.String() }

// GRPCStatus returns the Status represented by e.
func (e *statusError) GRPCStatus() *Status { return e.s }

// New returns a Status representing c and msg.
func New(c codes.Code, msg string) *Status { return &Status{code: c, msg: msg} }

// Newf returns New(c, fmt.Sprintf(format, a...)).
func Newf(c codes.Code, format string, a ...any) *Status {
	return New(c, fmt.Sprintf(format, a...))
}

// Error returns an error representing c and msg. If c is OK, returns nil.
func Error(c codes.Code, msg string) error { return New(c, msg).Err() }

// Errorf returns Error(c, fmt.Sprintf(format, a...)).
func Errorf(c codes.Code, format string, a ...any) error {
	return Error(c, fmt.Sprintf(format, a...))
}

// FromError returns a Status representation of err.
func FromError(err error) (s *Status, ok bool) {
	if err == nil {
		return nil, true
	}
	var gs interface{ GRPCStatus() *Status }
	if errors.As(err, &gs) {
		return gs.GRPCStatus(), true
	}
	return New(codes.Unknown, err.Error()), false
}

// Convert is a convenience function which removes the need to handle the
// boolean return value from FromError.
func Convert(err error) *Status {
	s, _ := FromError(err)
	return s
}

// Code returns the Code of the error if it is a Status error or if it wraps a
// Status error.
func Code(err error) codes.Code {
	if err == nil {
		return codes.OK
	}
	return Convert(err).Code()
}

// FromContextError converts a context error or wrapped context error into a
// Status.
func FromContextError(err error) *Status {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		return New(codes.DeadlineExceeded, err.Error())
	case errors.Is(err, context.Canceled):
		return New(codes.Canceled, err.Error())
	default:
		return New(codes.Unknown, err.Error())
	}
}
