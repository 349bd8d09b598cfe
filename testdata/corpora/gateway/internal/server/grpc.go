// Package server assembles the gateway's gRPC and connect servers and their
// middleware chains.
package server

import (
	"context"
	"log"
	"net/http"
	"strings"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/status"

	"example.test/gateway/gen/accounts/v1/accountsv1connect"
	edgev1 "example.test/gateway/gen/edge/v1"
	"example.test/gateway/internal/accounts"
	"example.test/gateway/internal/audit"
	"example.test/gateway/internal/authn"
	"example.test/gateway/internal/crash"
	"example.test/gateway/internal/edge"
	"example.test/gateway/internal/flags"
	"example.test/gateway/internal/metrics"
	"example.test/gateway/internal/middleware"
	"example.test/gateway/internal/platform/kv"
	"example.test/gateway/internal/tenants"
	"example.test/gateway/internal/tunnels"
)

// Deps are everything the middleware chains need.
type Deps struct {
	Edge      *edge.Server
	Accounts  *accounts.Handler
	Crash     *crash.Reporter
	Metrics   *metrics.Recorder
	Deadlines *middleware.Deadlines
	Keys      *authn.KeyStore
	Auth      *middleware.Authenticator
	Tenants   *tenants.Directory
	Limiter   *middleware.MethodLimiter
	Quota     *middleware.Quota
	Preloader *middleware.Preloader
	Auditor   *middleware.Auditor
	Audit     *audit.Sink
	Tunnels   *tunnels.Registry
	KV        *kv.Client
	Flags     *flags.Set
	JWT       middleware.JWTConfig
	PlanRPS   map[string]float64
	Prefetch  map[string][]string
	Strict    bool
}

var readOnlyPrefixes = []string{"Get", "List", "Resolve", "Ping", "Watch"}

func readOnly(fullMethod string) bool {
	name := fullMethod[strings.LastIndexByte(fullMethod, '/')+1:]
	for _, p := range readOnlyPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

func adminMethod(fullMethod string) bool {
	return strings.HasSuffix(fullMethod, "/DrainNode") || strings.HasSuffix(fullMethod, "/PurgeCache")
}

// maintenanceGate rejects mutating calls while the read-only flag is on.
func maintenanceGate(fs *flags.Set) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if readOnly(info.FullMethod) {
			return handler(ctx, req)
		}
		on, err := fs.Enabled(ctx, "read_only") // OK
		if err != nil {
			log.Printf("maintenance gate: %v", err)
		}
		if on {
			return nil, status.Error(codes.Unavailable, "the gateway control plane is in read-only maintenance")
		}
		return handler(ctx, req)
	}
}

// NewGRPC builds the gRPC server with the edge service and health checks.
func NewGRPC(d Deps) *grpc.Server {
	jwks, err := middleware.LoadJWKS(d.JWT.JWKSURL)
	if err != nil {
		log.Printf("server: partner key set not loaded yet: %v", err)
	}
	gs := grpc.NewServer(
		grpc.KeepaliveParams(keepalive.ServerParameters{MaxConnectionIdle: 5 * time.Minute}),
		grpc.ChainUnaryInterceptor(
			middleware.UnaryRecovery(d.Crash),
			middleware.UnaryRequestID,
			middleware.Metrics(d.Metrics),
			d.Deadlines.Unary,
			middleware.GlobalShed,
			middleware.APIKey(d.Keys, "x-api-key"),
			middleware.PartnerJWT(d.JWT, jwks),
			d.Auth.Unary,
			middleware.UnaryTenant(d.Tenants),
			d.Limiter.Unary,
			middleware.PerAccount(d.PlanRPS, 20),
			d.Quota.Unary,
			middleware.RequestCache(d.KV, d.Prefetch),
			d.Preloader.Unary,
			middleware.FeatureGate(d.KV),
			maintenanceGate(d.Flags),
			func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
				if adminMethod(info.FullMethod) {
					if on, _ := d.Flags.Enabled(context.Background(), "freeze_fleet_ops"); on { // BUG: ctxbackground
						return nil, status.Error(codes.FailedPrecondition, "fleet operations are frozen")
					}
				}
				return handler(ctx, req)
			},
			func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
				if _, ok := ctx.Deadline(); !ok && d.Strict {
					return nil, status.Error(codes.InvalidArgument, "calls to the control plane must carry a deadline")
				}
				return handler(ctx, req)
			},
			d.Auditor.Unary,
			middleware.AdminAudit(d.Audit, adminMethod),
		),
		grpc.ChainStreamInterceptor(
			middleware.StreamRecovery(d.Crash),
			middleware.StreamRequestID,
			middleware.StreamMetrics(d.Metrics),
			d.Deadlines.Stream,
			middleware.StreamAPIKey(d.Keys, "x-api-key"),
			d.Auth.Stream,
			middleware.StreamTenant(d.Tenants),
			d.Limiter.Stream,
			d.Quota.Stream,
			middleware.TunnelSessions(d.Tunnels),
			d.Auditor.Stream,
		),
	)
	edgev1.RegisterEdgeServiceServer(gs, d.Edge)
	hs := health.NewServer()
	hs.SetServingStatus(edgev1.EdgeService_ServiceDesc.ServiceName, healthpb.HealthCheckResponse_SERVING)
	healthpb.RegisterHealthServer(gs, hs)
	return gs
}

// NewConnect returns the HTTP handler serving the connect-go accounts service.
func NewConnect(d Deps) (string, http.Handler) {
	return accountsv1connect.NewAccountsServiceHandler(d.Accounts,
		connect.WithInterceptors(connectAuth()),
	)
}
