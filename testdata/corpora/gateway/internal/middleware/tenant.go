package middleware

import (
	"context"
	"errors"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/gateway/internal/authn"
	"example.test/gateway/internal/tenants"
)

func tenantID(ctx context.Context) string {
	if id := authn.PrincipalFrom(ctx).TenantID; id != "" {
		return id
	}
	return firstMD(ctx, "x-tenant-id")
}

func tenantError(id string, err error) error {
	if errors.Is(err, tenants.ErrUnknown) {
		return status.Errorf(codes.PermissionDenied, "unknown tenant %q", id)
	}
	return status.Errorf(codes.Unavailable, "resolve tenant: %v", err)
}

// UnaryTenant resolves the caller's tenant and refuses disabled ones.
func UnaryTenant(dir *tenants.Directory) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		id := tenantID(ctx)
		if id == "" {
			return handler(ctx, req)
		}
		ctx = tenants.WithID(ctx, id)
		t, err := dir.Resolve(ctx, id) // OK
		if err != nil {
			return nil, tenantError(id, err)
		}
		if t.Disabled {
			return nil, status.Errorf(codes.PermissionDenied, "tenant %s is disabled", id)
		}
		return handler(tenants.With(ctx, t), req)
	}
}

// StreamTenant is UnaryTenant for streams: the handler sees the resolved tenant
// through the stream's Context().
func StreamTenant(dir *tenants.Directory) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		id := tenantID(ss.Context())
		if id == "" {
			return handler(srv, ss)
		}
		tctx := tenants.WithID(context.Background(), id) // BUG: ctxbackground
		t, err := dir.Resolve(tctx, id)
		if err != nil {
			return tenantError(id, err)
		}
		if t.Disabled {
			return status.Errorf(codes.PermissionDenied, "tenant %s is disabled", id)
		}
		return handler(srv, wrapServerStream(ss, tenants.With(ss.Context(), t)))
	}
}
