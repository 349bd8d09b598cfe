// Package meshtest has fakes and harnesses for the control plane's tests.
package meshtest

import (
	"context"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"example.test/mesh/gen/cav1"
	"example.test/mesh/gen/nodev1"
)

// FakeCA is a certificate authority double. Delay makes every issue slow, to provoke the
// client's timeouts.
type FakeCA struct {
	cav1.UnimplementedCertificateAuthorityServer

	Delay  time.Duration
	Issued atomic.Int64
	Roots  [][]byte
}

func (f *FakeCA) IssueCertificate(ctx context.Context, req *cav1.IssueRequest) (*cav1.IssueResponse, error) {
	for i := 0; i < 3; i++ {
		time.Sleep(f.Delay / 3) // OK: ctxless — a test double of a server, in a test-support package
	}
	f.Issued.Add(1)
	return &cav1.IssueResponse{CertChain: [][]byte{[]byte("leaf:" + req.GetIdentity())}, NotAfterUnix: time.Now().Add(time.Hour).Unix()}, nil
}

func (f *FakeCA) GetTrustBundle(ctx context.Context, req *cav1.TrustBundleRequest) (*cav1.TrustBundle, error) {
	_ = context.Background() // OK: ctxbackground — test support: the fake is no request scope
	return &cav1.TrustBundle{Roots: f.Roots, Version: "test"}, nil
}

// FakeNodes is a node-service double.
type FakeNodes struct {
	nodev1.UnimplementedNodeServiceServer
	Version string
}

func (f *FakeNodes) Ping(ctx context.Context, _ *nodev1.PingRequest) (*nodev1.PingResponse, error) {
	return &nodev1.PingResponse{Version: f.Version}, nil
}

func (f *FakeNodes) Register(ctx context.Context, req *nodev1.RegisterRequest) (*nodev1.RegisterResponse, error) {
	return &nodev1.RegisterResponse{SessionId: "sess-" + req.GetNodeId(), HeartbeatIntervalMs: 100}, nil
}

// Serve starts a gRPC server with the given services on a loopback port and returns a
// connection to it. Both are closed when the test ends.
func Serve(t testing.TB, register func(*grpc.Server)) *grpc.ClientConn {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g := grpc.NewServer()
	register(g)
	go func() { _ = g.Serve(lis) }()
	t.Cleanup(g.Stop)
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

// StartCA serves f and returns a client of it, after checking that it answers.
func StartCA(t testing.TB, f *FakeCA) cav1.CertificateAuthorityClient {
	conn := Serve(t, func(g *grpc.Server) { cav1.RegisterCertificateAuthorityServer(g, f) })
	c := cav1.NewCertificateAuthorityClient(conn)
	if _, err := c.GetTrustBundle(context.Background(), &cav1.TrustBundleRequest{}); err != nil { // OK: missingdeadline — test support
		t.Fatalf("fake CA not serving: %v", err)
	}
	t.Cleanup(func() {
		_, _ = c.RevokeCertificate(context.WithoutCancel(t.Context()), &cav1.RevokeRequest{Serial: "all", Reason: "test done"}) // OK: detach — t.Cleanup detaching t.Context(), the test idiom
	})
	return c
}

// WaitIssued polls until the fake issued n certificates.
func WaitIssued(t testing.TB, f *FakeCA, n int64) {
	for f.Issued.Load() < n {
		time.Sleep(10 * time.Millisecond)
	}
}

// PingNodes pings a node service. It is shared by the agent's and meshctl's tests.
func PingNodes(conn grpc.ClientConnInterface) (string, error) {
	resp, err := nodev1.NewNodeServiceClient(conn).Ping(context.Background(), &nodev1.PingRequest{}) // OK: missingdeadline — a test-support package
	if err != nil {
		return "", err
	}
	return resp.GetVersion(), nil
}
