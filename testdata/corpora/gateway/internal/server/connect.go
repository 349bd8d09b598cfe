package server

import (
	"context"
	"errors"
	"strings"

	"connectrpc.com/connect"
)

// connectAuth requires a bearer token on the accounts API; the accounts
// service behind the ingress checks it.
func connectAuth() connect.UnaryInterceptorFunc {
	return func(next connect.UnaryFunc) connect.UnaryFunc {
		return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
			h := req.Header().Get("Authorization")
			if !strings.HasPrefix(h, "Bearer ") {
				return nil, connect.NewError(connect.CodeUnauthenticated, errors.New("bearer token required"))
			}
			return next(ctx, req)
		}
	}
}
