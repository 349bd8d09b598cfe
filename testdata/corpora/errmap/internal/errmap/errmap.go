package errmap

import (
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// ToStatus lives in another package of the module.
func ToStatus(err error) error {
	return status.Errorf(codes.Internal, "errmap: %v", err) // OK?
}
