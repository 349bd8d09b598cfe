package middleware

import (
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func replaceAll(s, old, new string) string { return strings.ReplaceAll(s, old, new) }

func errKilled(method string) error {
	return status.Errorf(codes.Unavailable, "%s is disabled by an operator kill switch", method)
}
