// Package tenant carries the tenant (org) ID of a request through contexts and
// gRPC metadata.
package tenant

import (
	"context"
	"errors"
	"strings"

	"google.golang.org/grpc/metadata"
)

// Header is the metadata key that carries the tenant ID.
const Header = "x-scope-orgid"

// ErrNoTenant is returned when a request carries no tenant ID.
var ErrNoTenant = errors.New("no org id")

type ctxKey struct{}

// With returns a copy of ctx carrying the tenant id.
func With(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, ctxKey{}, id)
}

// ID returns the tenant carried by ctx, or "" when there is none.
func ID(ctx context.Context) string {
	id, _ := ctx.Value(ctxKey{}).(string)
	return id
}

// FromIncoming reads the tenant from the incoming gRPC metadata.
func FromIncoming(ctx context.Context) (string, error) {
	md, ok := metadata.FromIncomingContext(ctx)
	if !ok {
		return "", ErrNoTenant
	}
	vals := md.Get(Header)
	if len(vals) != 1 || strings.TrimSpace(vals[0]) == "" {
		return "", ErrNoTenant
	}
	return vals[0], nil
}

// Outgoing propagates the tenant of ctx to the outgoing metadata of ctx.
func Outgoing(ctx context.Context) context.Context {
	id := ID(ctx)
	if id == "" {
		return ctx
	}
	return metadata.AppendToOutgoingContext(ctx, Header, id)
}
