package servenv

import (
	"context"
	"errors"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

var mysqlCodes = map[string]codes.Code{
	"Duplicate entry":      codes.AlreadyExists,
	"doesn't exist":        codes.NotFound,
	"Lock wait timeout":    codes.Aborted,
	"Deadlock":             codes.Aborted,
	"Too many connections": codes.ResourceExhausted,
}

// Code maps an error of the proxy (MySQL errors, topo errors, context
// errors) to the gRPC code a client should see.
func Code(err error) codes.Code {
	switch {
	case err == nil:
		return codes.OK
	case errors.Is(err, context.DeadlineExceeded):
		return codes.DeadlineExceeded
	case errors.Is(err, context.Canceled):
		return codes.Canceled
	}
	if s, ok := status.FromError(err); ok {
		return s.Code()
	}
	for substr, code := range mysqlCodes {
		if strings.Contains(err.Error(), substr) {
			return code
		}
	}
	return codes.Unknown
}

// ToGRPC converts err to a gRPC status error with the code Code picks.
func ToGRPC(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := status.FromError(err); ok {
		return err
	}
	return status.Error(Code(err), err.Error())
}
