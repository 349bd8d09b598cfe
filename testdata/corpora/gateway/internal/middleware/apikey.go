package middleware

import (
	"context"
	"errors"
	"log"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/gateway/internal/authn"
)

func keyPrincipal(k *authn.Key) *authn.Principal {
	return &authn.Principal{Subject: "key:" + k.ID, AccountID: k.AccountID, TenantID: k.TenantID, Scopes: k.Scopes, ViaAPIKey: true}
}

func keyError(err error) error {
	if errors.Is(err, authn.ErrNotFound) {
		return status.Error(codes.Unauthenticated, "unknown or revoked API key")
	}
	return status.Errorf(codes.Unavailable, "API key check: %v", err)
}

// APIKey authenticates callers that present an API key in header. Calls
// without one fall through to bearer authentication.
func APIKey(keys *authn.KeyStore, header string) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		raw := firstMD(ctx, header)
		if raw == "" {
			return handler(ctx, req)
		}
		k, err := keys.Check(raw) // BUG: ctxbackground
		if err != nil {
			return nil, keyError(err)
		}
		if err := keys.Touch(ctx, k.ID); err != nil { // OK
			log.Printf("apikey: touch %s: %v", k.ID, err)
		}
		return handler(authn.WithPrincipal(ctx, keyPrincipal(k)), req)
	}
}

// StreamAPIKey is APIKey for streams.
func StreamAPIKey(keys *authn.KeyStore, header string) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		ctx := ss.Context()
		raw := firstMD(ctx, header)
		if raw == "" {
			return handler(srv, ss)
		}
		k, err := keys.Lookup(ctx, raw) // OK
		if err != nil {
			return keyError(err)
		}
		return handler(srv, wrapServerStream(ss, authn.WithPrincipal(ctx, keyPrincipal(k))))
	}
}
