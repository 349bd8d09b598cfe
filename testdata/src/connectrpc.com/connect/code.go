package connect

import (
	"errors"
	"strconv"
)

// A Code is one of the Connect protocol's error codes.
type Code uint32

// The Connect error codes.
const (
	CodeCanceled           Code = 1
	CodeUnknown            Code = 2
	CodeInvalidArgument    Code = 3
	CodeDeadlineExceeded   Code = 4
	CodeNotFound           Code = 5
	CodeAlreadyExists      Code = 6
	CodePermissionDenied   Code = 7
	CodeResourceExhausted  Code = 8
	CodeFailedPrecondition Code = 9
	CodeAborted            Code = 10
	CodeOutOfRange         Code = 11
	CodeUnimplemented      Code = 12
	CodeInternal           Code = 13
	CodeUnavailable        Code = 14
	CodeDataLoss           Code = 15
	CodeUnauthenticated    Code = 16
)

var codeNames = [...]string{
	"ok", "canceled", "unknown", "invalid_argument", "deadline_exceeded",
	"not_found", "already_exists", "permission_denied", "resource_exhausted",
	"failed_precondition", "aborted", "out_of_range", "unimplemented",
	"internal", "unavailable", "data_loss", "unauthenticated",
}

// String returns the code's wire name, e.g. "deadline_exceeded".
func (c Code) String() string {
	if int(c) < len(codeNames) {
		return codeNames[c]
	}
	return "code_" + strconv.FormatUint(uint64(c), 10)
}

// CodeOf returns the error's status code if it is or wraps an *Error and
// CodeUnknown otherwise.
func CodeOf(err error) Code {
	if connectErr, ok := asError(err); ok {
		return connectErr.Code()
	}
	return CodeUnknown
}

func asError(err error) (*Error, bool) {
	var connectErr *Error
	ok := errors.As(err, &connectErr)
	return connectErr, ok
}

// Error captures four key pieces of information: a Code, an underlying Go
// error, a map of metadata, and an optional collection of arbitrary Protobuf
// messages called "details".
type Error struct {
	code       Code
	underlying error
}

// NewError annotates any Go error with a status code.
func NewError(c Code, underlying error) *Error {
	return &Error{code: c, underlying: underlying}
}

func (e *Error) Error() string {
	if e.underlying == nil {
		return e.code.String()
	}
	return e.code.String() + ": " + e.underlying.Error()
}

// Message returns the underlying error message.
func (e *Error) Message() string {
	if e.underlying == nil {
		return ""
	}
	return e.underlying.Error()
}

// Unwrap allows errors.Is and errors.As access to the underlying error.
func (e *Error) Unwrap() error { return e.underlying }

// Code returns the error's status code.
func (e *Error) Code() Code { return e.code }
