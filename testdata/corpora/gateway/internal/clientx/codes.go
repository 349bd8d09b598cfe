package clientx

import (
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func unavailable(err error) bool { return status.Code(err) == codes.Unavailable }
