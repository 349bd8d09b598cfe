package middleware

import (
	"context"
	"errors"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	authzv1 "example.test/gateway/gen/authz/v1"
	"example.test/gateway/internal/authn"
)

// Authenticator resolves bearer tokens: first against the session cache, then
// by asking the authz service to introspect them. It also asks authz whether the
// principal may call the method.
type Authenticator struct {
	sessions      *authn.Sessions
	authz         authzv1.AuthzServiceClient
	public        map[string]bool
	lookupTimeout time.Duration
	rememberFor   int64
}

// NewAuthenticator returns an authenticator. Methods in public skip it.
func NewAuthenticator(sessions *authn.Sessions, authz authzv1.AuthzServiceClient, public []string, lookupTimeout time.Duration) *Authenticator {
	a := &Authenticator{sessions: sessions, authz: authz, public: map[string]bool{}, lookupTimeout: lookupTimeout, rememberFor: 300}
	for _, m := range public {
		a.public[m] = true
	}
	return a
}

// Unary authenticates and authorizes one unary call.
func (a *Authenticator) Unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	if a.public[info.FullMethod] {
		return handler(ctx, req)
	}
	if p := authn.PrincipalFrom(ctx); p.ViaAPIKey {
		return handler(ctx, req)
	}
	tok, err := bearer(ctx)
	if err != nil {
		return nil, err
	}
	p, err := a.sessions.Lookup(ctx, tok) // OK
	if errors.Is(err, authn.ErrNotFound) {
		p, err = a.introspect(ctx, tok) // OK
	}
	if err != nil {
		return nil, err
	}
	if err := a.authorize(ctx, p, info.FullMethod); err != nil { // OK
		return nil, err
	}
	return handler(authn.WithPrincipal(ctx, p), req)
}

// Stream authenticates a stream once, when it opens.
func (a *Authenticator) Stream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	if a.public[info.FullMethod] {
		return handler(srv, ss)
	}
	tok, err := bearer(ss.Context())
	if err != nil {
		return err
	}
	p, err := a.lookup(tok) // BUG: ctxbackground
	if err != nil {
		return err
	}
	if err := a.authorize(ss.Context(), p, info.FullMethod); err != nil { // OK
		return err
	}
	return handler(srv, wrapServerStream(ss, authn.WithPrincipal(ss.Context(), p)))
}

// lookup resolves tok within the authenticator's own lookup budget.
func (a *Authenticator) lookup(tok string) (*authn.Principal, error) {
	ctx, cancel := context.WithTimeout(context.TODO(), a.lookupTimeout)
	defer cancel()
	p, err := a.sessions.Lookup(ctx, tok)
	if errors.Is(err, authn.ErrNotFound) {
		return a.introspect(ctx, tok)
	}
	return p, err
}

func (a *Authenticator) introspect(ctx context.Context, tok string) (*authn.Principal, error) {
	resp, err := a.authz.Introspect(ctx, &authzv1.IntrospectRequest{Token: tok})
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "token introspection: %v", err)
	}
	if !resp.GetActive() {
		return nil, status.Error(codes.Unauthenticated, "token is not active")
	}
	p := &authn.Principal{Subject: resp.GetSubject(), Scopes: resp.GetScopes()}
	if ttl := resp.GetExpiresUnix() - time.Now().Unix(); ttl > 0 {
		_ = a.sessions.Remember(ctx, tok, p, min(ttl, a.rememberFor))
	}
	return p, nil
}

func (a *Authenticator) authorize(ctx context.Context, p *authn.Principal, method string) error {
	resp, err := a.authz.Check(ctx, &authzv1.CheckRequest{Subject: p.Subject, Action: method, Resource: service(method)})
	if err != nil {
		return status.Errorf(codes.Unavailable, "authorization: %v", err)
	}
	if !resp.GetAllowed() {
		return status.Errorf(codes.PermissionDenied, "%s may not call %s: %s", p.Subject, method, resp.GetReason())
	}
	return nil
}
