// Package agent is the per-node data-plane agent: it registers the node with the control
// plane, bootstraps and supervises the sidecar proxy, keeps its certificates fresh, proxies
// the sidecar's discovery streams and runs the workloads' health probes.
package agent

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"example.test/mesh/gen/cav1"
	"example.test/mesh/gen/discoveryv1"
	"example.test/mesh/gen/nodev1"
	"example.test/mesh/internal/clientx"
	"example.test/mesh/internal/cpclient"
	"example.test/mesh/internal/telemetry"
)

// Config configures the agent.
type Config struct {
	NodeID           string
	Zone             string
	Version          string
	ControlPlane     string
	Workloads        []string
	Identity         string
	SidecarBin       string
	ConfigDir        string
	LocalADS         string
	Probes           []Probe
	BootstrapTimeout time.Duration
	HeartbeatTimeout time.Duration
	FetchTimeout     time.Duration
	Heartbeat        time.Duration
}

// Lifetime is the agent's own lifetime, ended by Stop.
type Lifetime struct {
	ctx    context.Context
	cancel context.CancelFunc
}

// NewLifetime returns a lifetime derived from parent.
func NewLifetime(parent context.Context) *Lifetime {
	ctx, cancel := context.WithCancel(parent)
	return &Lifetime{ctx: ctx, cancel: cancel}
}

// Context returns the lifetime's ctx.
func (l *Lifetime) Context() context.Context { return l.ctx }

// Stop ends the lifetime.
func (l *Lifetime) Stop() { l.cancel() }

// Agent is the node agent.
type Agent struct {
	cfg     Config
	adsConn *grpc.ClientConn // long-lived streams and the plain node API
	apiConn *grpc.ClientConn // unary calls with a default deadline
	node    nodev1.NodeServiceClient
	api     nodev1.NodeServiceClient
	ads     discoveryv1.AggregatedDiscoveryServiceClient
	ca      cav1.CertificateAuthorityClient
	cp      *cpclient.Client
	life    *Lifetime
	log     *telemetry.Logger

	mu      sync.Mutex
	session string
	probes  map[string]string
	ready   bool
}

// New dials the control plane.
func New(cfg Config) (*Agent, error) {
	adsConn, err := grpc.NewClient(cfg.ControlPlane, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, err
	}
	apiConn, err := clientx.Dial(context.Background(), cfg.ControlPlane, 10*time.Second) // OK: ctxbackground — a constructor, not a request scope
	if err != nil {
		adsConn.Close()
		return nil, err
	}
	return &Agent{
		cfg:     cfg,
		adsConn: adsConn,
		apiConn: apiConn,
		node:    nodev1.NewNodeServiceClient(adsConn),
		api:     nodev1.NewNodeServiceClient(apiConn),
		ads:     discoveryv1.NewAggregatedDiscoveryServiceClient(adsConn),
		ca:      cav1.NewCertificateAuthorityClient(adsConn),
		cp:      cpclient.New(adsConn),
		life:    NewLifetime(context.Background()),
		log:     telemetry.NewLogger("agent"),
		probes:  map[string]string{},
	}, nil
}

// Run runs the agent until ctx is done.
func (a *Agent) Run(ctx context.Context) error {
	defer a.life.Stop()
	sess, err := a.register()
	if err != nil {
		return fmt.Errorf("register: %w", err)
	}
	boot, err := a.bootstrap(ctx)
	if err != nil {
		return fmt.Errorf("bootstrap: %w", err)
	}
	if err := a.writeBootstrap(boot.GetConfig()); err != nil {
		return err
	}
	if err := a.fetchTrustBundle(ctx); err != nil {
		return err
	}
	if v, err := a.api.Ping(context.Background(), &nodev1.PingRequest{}); err == nil && v.GetVersion() != a.cfg.Version { // OK: missingdeadline — apiConn's interceptor (clientx.Dial) gives the call a default deadline
		a.log.Info(ctx, "version skew", "cp", v.GetVersion())
	}
	go a.heartbeatLoop(ctx, sess)
	go a.rotateLoop(ctx)
	go a.readinessLoop(ctx)
	go a.probeLoop(ctx)
	go a.watchConfig(ctx)
	sidecar, err := a.startSidecar()
	if err != nil {
		return err
	}
	errc := make(chan error, 1)
	go func() { errc <- a.serveLocal(ctx) }()
	select {
	case <-ctx.Done():
	case err = <-errc:
	}
	a.leave(sess)
	_ = sidecar.Process.Signal(os.Interrupt)
	return err
}

func (a *Agent) register() (string, error) {
	resp, err := a.node.Register(context.Background(), &nodev1.RegisterRequest{NodeId: a.cfg.NodeID, Zone: a.cfg.Zone, Version: a.cfg.Version, Workloads: a.cfg.Workloads}) // BUG: missingdeadline — registration waits on the control plane with no deadline
	if err != nil {
		return "", err
	}
	a.mu.Lock()
	a.session = resp.GetSessionId()
	a.mu.Unlock()
	return resp.GetSessionId(), nil
}

func (a *Agent) bootstrap(ctx context.Context) (*nodev1.BootstrapResponse, error) {
	bctx, cancel := clientx.Timeout(ctx, a.cfg.BootstrapTimeout)
	defer cancel()
	return a.node.GetBootstrap(bctx, &nodev1.BootstrapRequest{NodeId: a.cfg.NodeID, Workload: a.cfg.Identity}) // OK: missingdeadline — the bound is the operator's -bootstrap-timeout, applied only when set
}

func (a *Agent) writeBootstrap(cfg []byte) error {
	if err := os.MkdirAll(a.cfg.ConfigDir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(a.cfg.ConfigDir, "bootstrap.json"), cfg, 0o644)
}

func (a *Agent) fetchTrustBundle(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	t := time.AfterFunc(a.cfg.FetchTimeout, cancel)
	defer t.Stop()
	tb, err := a.ca.GetTrustBundle(ctx, &cav1.TrustBundleRequest{TrustDomain: a.cfg.Zone}) // OK: missingdeadline — a timer cancels the ctx: a watchdog is a deadline
	if err != nil {
		return err
	}
	for i, root := range tb.GetRoots() {
		if err := os.WriteFile(filepath.Join(a.cfg.ConfigDir, fmt.Sprintf("root-%d.der", i)), root, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func (a *Agent) heartbeatLoop(ctx context.Context, sess string) {
	t := time.NewTicker(a.cfg.Heartbeat)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			re, err := a.cp.Heartbeat(ctx, sess, a.probeResults(), a.cfg.HeartbeatTimeout) // OK: missingdeadline — cpclient.Heartbeat puts a timeout on every call
			if err != nil {
				a.log.Warn(ctx, "heartbeat", "err", err)
				continue
			}
			if re {
				if s, err := a.register(); err == nil {
					sess = s
				}
			}
		}
	}
}

func (a *Agent) rotateLoop(ctx context.Context) {
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
			if err != nil {
				continue
			}
			csr, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{Subject: pkix.Name{CommonName: a.cfg.Identity}}, key)
			if err != nil {
				continue
			}
			cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			resp, err := a.ca.IssueCertificate(cctx, &cav1.IssueRequest{Identity: a.cfg.Identity, Csr: csr, TtlSeconds: 86400}) // OK: missingdeadline — bounded on every turn
			cancel()
			if err != nil {
				a.log.Warn(ctx, "rotate certificate", "err", err)
				continue
			}
			_ = os.WriteFile(filepath.Join(a.cfg.ConfigDir, "cert.json"), resp.GetCertChain()[0], 0o600)
		}
	}
}

func (a *Agent) readinessLoop(ctx context.Context) {
	t := time.NewTicker(10 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			v, err := a.cp.Ping() // BUG: missingdeadline — cpclient.Ping is a convenience API over an RPC with an inline Background: its caller is reported
			a.mu.Lock()
			a.ready = err == nil
			a.mu.Unlock()
			if err == nil && v != a.cfg.Version {
				a.log.Info(ctx, "control plane version differs", "cp", v, "agent", a.cfg.Version)
			}
		}
	}
}

func (a *Agent) watchConfig(ctx context.Context) {
	stream, err := a.ads.StreamAggregatedResources(ctx) // OK: missingdeadline — a streaming call
	if err != nil {
		a.log.Warn(ctx, "ads", "err", err)
		return
	}
	if err := stream.Send(&discoveryv1.DiscoveryRequest{Node: &discoveryv1.Node{Id: a.cfg.NodeID, Zone: a.cfg.Zone}, TypeUrl: "type.mesh/Bootstrap"}); err != nil {
		return
	}
	for {
		resp, err := stream.Recv()
		if err != nil {
			return
		}
		_ = a.writeBootstrap(resp.GetResources()[0].GetBody())
	}
}

func (a *Agent) leave(sess string) {
	_, err := a.api.Heartbeat(context.Background(), &nodev1.HeartbeatRequest{SessionId: sess, ProbeResults: map[string]string{"leaving": "true"}}) // OK: missingdeadline — apiConn is dialled by clientx.Dial, whose interceptor sets a default deadline
	if err != nil {
		a.log.Warn(context.Background(), "leave", "err", err)
	}
	_ = a.apiConn.Close()
	_ = a.adsConn.Close()
}

func (a *Agent) probeResults() map[string]string {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make(map[string]string, len(a.probes))
	for k, v := range a.probes {
		out[k] = v
	}
	return out
}
