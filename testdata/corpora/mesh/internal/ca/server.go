// Package ca is the mesh certificate authority: it issues and renews workload certificates
// and serves the trust bundle.
package ca

import (
	"context"
	"errors"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/mesh/gen/cav1"
	"example.test/mesh/internal/audit"
	"example.test/mesh/internal/errs"
	"example.test/mesh/internal/pki"
	"example.test/mesh/internal/store"
	"example.test/mesh/internal/telemetry"
)

const maxTTL = 24 * time.Hour

// Server implements cav1.CertificateAuthorityServer.
type Server struct {
	cav1.UnimplementedCertificateAuthorityServer

	ctx     context.Context // server lifetime, cancelled on shutdown
	issuer  *pki.Issuer
	audit   *audit.Log
	log     *telemetry.Logger
	issued  *telemetry.Counter
	latency *telemetry.Histogram
	limiter *limiter
	crl     *crlPublisher
	penalty time.Duration
}

// NewServer returns a CA server; ctx is the server's lifetime.
func NewServer(ctx context.Context, iss *pki.Issuer, al *audit.Log) *Server {
	return &Server{
		ctx:     ctx,
		issuer:  iss,
		audit:   al,
		log:     telemetry.NewLogger("ca"),
		issued:  telemetry.NewCounter("ca_certificates_issued_total"),
		latency: telemetry.NewHistogram("ca_issue_seconds"),
		limiter: newLimiter(20, time.Second),
		crl:     &crlPublisher{},
		penalty: 250 * time.Millisecond,
	}
}

// Register registers the server.
func (s *Server) Register(g *grpc.Server) { cav1.RegisterCertificateAuthorityServer(g, s) }

func ttlOf(secs int64) time.Duration {
	ttl := time.Duration(secs) * time.Second
	if ttl <= 0 || ttl > maxTTL {
		ttl = maxTTL
	}
	return ttl
}

func (s *Server) IssueCertificate(ctx context.Context, req *cav1.IssueRequest) (*cav1.IssueResponse, error) {
	if !s.limiter.allow(req.GetIdentity()) {
		time.Sleep(s.penalty) // OK: ctxless — one penalty sleep of a rate limiter, not a loop
		return nil, status.Error(codes.ResourceExhausted, "too many certificate requests")
	}
	start := time.Now()
	chain, notAfter, err := s.issuer.Issue(ctx, req.GetIdentity(), req.GetCsr(), ttlOf(req.GetTtlSeconds())) // BUG: ctxbackground — pki.Issuer.sign calls the KMS with context.Background()
	if err != nil {
		if code := errs.Code(err); code != codes.Unknown {
			return nil, status.Error(code, err.Error())
		}
		return nil, status.Errorf(codes.Internal, "issue certificate: %v", err) // OK: statusmask — errs.Code, a mapping helper of the module, classified the error first
	}
	s.issued.Add(context.Background(), 1, "issue") // OK: ctxbackground — a metric Add that ignores its ctx
	s.latency.Record(ctx, time.Since(start).Seconds(), "issue")
	return &cav1.IssueResponse{CertChain: chain, NotAfterUnix: notAfter.Unix()}, nil
}

func (s *Server) RenewCertificate(ctx context.Context, req *cav1.RenewRequest) (*cav1.IssueResponse, error) {
	if len(req.GetCurrentCert()) == 0 {
		return nil, status.Error(codes.InvalidArgument, "current certificate is required")
	}
	chain, notAfter, err := s.issuer.Issue(ctx, req.GetIdentity(), req.GetCsr(), maxTTL) // OK: ctxbackground — same KMS root as IssueCertificate's call: one finding per root and package, this is a related position
	if err != nil {
		return nil, status.Error(errs.Code(err), err.Error())
	}
	entry := audit.Entry{At: time.Now(), Actor: req.GetIdentity(), Action: "renew", Resource: req.GetIdentity(), Outcome: "ok"}
	go s.audit.Write(telemetry.Detached(ctx), entry) // OK: ctxbackground — telemetry.Detached is a documented WithoutCancel written out, not a root
	return &cav1.IssueResponse{CertChain: chain, NotAfterUnix: notAfter.Unix()}, nil
}

func (s *Server) RevokeCertificate(ctx context.Context, req *cav1.RevokeRequest) (*cav1.RevokeResponse, error) {
	if err := s.issuer.Revoke(ctx, req.GetSerial(), req.GetReason()); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return nil, status.Errorf(codes.AlreadyExists, "certificate %s already revoked", req.GetSerial())
		}
		return nil, status.Errorf(codes.Internal, "revoke %s: %v", req.GetSerial(), err) // BUG: statusmask — the ErrConflict test tells apart only its own branch; a deadline from the store becomes Internal
	}
	// the CRL must be republished even when the caller gives up; publishers dedupe by serial
	go s.publishRevocation(context.WithoutCancel(ctx), req.GetSerial()) // OK: detach — a reason is given on the line above
	if err := s.crl.Publish(s.ctx); err != nil {                        // BUG: ctxflow — the server's lifetime ctx handed to a stub that never refers to it is still reported
		s.log.Warn(ctx, "crl publish", "err", err)
	}
	return &cav1.RevokeResponse{}, nil
}

func (s *Server) publishRevocation(ctx context.Context, serial string) {
	_ = s.audit.WriteBounded(ctx, audit.Entry{At: time.Now(), Action: "revoke", Resource: serial, Outcome: "ok"})
}

func (s *Server) GetTrustBundle(ctx context.Context, req *cav1.TrustBundleRequest) (*cav1.TrustBundle, error) {
	b, err := s.issuer.TrustBundle(ctx) // OK: ctxbackground — the bundle is read from the KMS once under sync.Once and kept
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "trust bundle: %v", err) // OK: statusmask — TrustBundle never refers to its ctx: its error is not the request's deadline
	}
	return &cav1.TrustBundle{Roots: [][]byte{b}, Version: req.GetTrustDomain()}, nil
}

// RunRotation rolls the intermediate key every interval until ctx is done.
func (s *Server) RunRotation(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			rctx, cancel := context.WithTimeout(context.Background(), time.Minute) // OK: ctxbackground — a background rotation loop is not a request scope
			if err := s.issuer.RotateIntermediate(rctx); err != nil {
				s.log.Error(rctx, "rotate intermediate", "err", err)
			}
			cancel()
		}
	}
}

// crlPublisher will push the CRL to the distribution points; for now the CRL is served from
// the store by the admin endpoint.
type crlPublisher struct{}

func (p *crlPublisher) Publish(_ context.Context) error { return nil }

type limiter struct {
	mu     sync.Mutex
	burst  int
	window time.Duration
	seen   map[string][]time.Time
}

func newLimiter(burst int, window time.Duration) *limiter {
	return &limiter{burst: burst, window: window, seen: map[string][]time.Time{}}
}

func (l *limiter) allow(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	var kept []time.Time
	for _, t := range l.seen[key] {
		if now.Sub(t) < l.window {
			kept = append(kept, t)
		}
	}
	if len(kept) >= l.burst {
		l.seen[key] = kept
		return false
	}
	l.seen[key] = append(kept, now)
	return true
}
