// Package codes is a type-checking stub of google.golang.org/grpc/codes.
package codes

import "strconv"

// A Code is a status code defined according to the gRPC documentation.
type Code uint32

// The gRPC status codes.
const (
	OK                 Code = 0
	Canceled           Code = 1
	Unknown            Code = 2
	InvalidArgument    Code = 3
	DeadlineExceeded   Code = 4
	NotFound           Code = 5
	AlreadyExists      Code = 6
	PermissionDenied   Code = 7
	ResourceExhausted  Code = 8
	FailedPrecondition Code = 9
	Aborted            Code = 10
	OutOfRange         Code = 11
	Unimplemented      Code = 12
	Internal           Code = 13
	Unavailable        Code = 14
	DataLoss           Code = 15
	Unauthenticated    Code = 16
)

var names = [...]string{
	"OK", "Canceled", "Unknown", "InvalidArgument", "DeadlineExceeded",
	"NotFound", "AlreadyExists", "PermissionDenied", "ResourceExhausted",
	"FailedPrecondition", "Aborted", "OutOfRange", "Unimplemented",
	"Internal", "Unavailable", "DataLoss", "Unauthenticated",
}

// String returns the code's name, e.g. "DeadlineExceeded".
func (c Code) String() string {
	if int(c) < len(names) {
		return names[c]
	}
	return "Code(" + strconv.FormatInt(int64(c), 10) + ")"
}
