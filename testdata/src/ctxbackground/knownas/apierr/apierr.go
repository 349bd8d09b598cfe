// Package apierr builds the API's errors. InvalidArgument logs a failure to build one with an
// event written on a root of its own, on the branch where errors.As(err, &apiErr) fails — but
// err is the *Error that WithCode, a function of the package, always returns: As answers true,
// the branch never runs, and the root does no work. Wrapped's err may be anything: its branch
// runs, and the event written with the root there is work.
package apierr

import (
	"context"
	"errors"
	"fmt"

	"ctxbackground/knownas/errs"
	pkgerrors "github.com/pkg/errors"
)

// Error is an API error.
type Error struct {
	Code int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("%d: %s", e.Code, e.Msg) }

// WithCode returns an API error.
func WithCode(code int, msg string) error {
	return &Error{Code: code, Msg: msg}
}

// writeEvent sends an error event and waits for the broker to take it.
func writeEvent(ctx context.Context, op string, err error) {
	select {
	case <-ctx.Done():
	case events <- op + ": " + err.Error():
	}
}

var events = make(chan string)

// InvalidArgument returns an invalid-argument API error.
func InvalidArgument(msg string) *Error {
	ctx := context.TODO()
	err := WithCode(3, msg)
	var apiErr *Error
	if !errors.As(err, &apiErr) {
		writeEvent(ctx, "apierr.InvalidArgument", err)
	}
	return apiErr
}

// Wrapped returns err as an API error, or an internal one.
func Wrapped(err error) *Error { // want Wrapped:"drops ctx: context.TODO\\(\\) at .*/apierr.go:53"
	ctx := context.TODO()
	var apiErr *Error
	if !errors.As(err, &apiErr) {
		writeEvent(ctx, "apierr.Wrapped", err)
		return &Error{Code: 13, Msg: err.Error()}
	}
	return apiErr
}

// Conflict is InvalidArgument through the module's wrapper of errors.As: the same.
func Conflict(msg string) *Error {
	ctx := context.TODO()
	err := WithCode(9, msg)
	var apiErr *Error
	if !errs.As(err, &apiErr) {
		writeEvent(ctx, "apierr.Conflict", err)
	}
	return apiErr
}

// Aborted checks with a function that is not a wrapper of errors.As: its branch may run.
func Aborted(msg string) *Error { // want Aborted:"drops ctx: context.TODO\\(\\) at .*/apierr.go:75"
	ctx := context.TODO()
	err := WithCode(10, msg)
	var apiErr *Error
	if !errs.AsEither(&apiErr, err) {
		writeEvent(ctx, "apierr.Aborted", err)
	}
	return apiErr
}

// Precondition is InvalidArgument through github.com/pkg/errors' As: the same.
func Precondition(msg string) *Error {
	ctx := context.TODO()
	err := WithCode(9, msg)
	var apiErr *Error
	if !pkgerrors.As(err, &apiErr) {
		writeEvent(ctx, "apierr.Precondition", err)
	}
	return apiErr
}
