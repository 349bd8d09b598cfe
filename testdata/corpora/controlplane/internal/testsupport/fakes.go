// Package testsupport holds fakes and harnesses for the control plane's
// tests: an in-process driver plugin and helpers to start it.
package testsupport

import (
	"context"
	"net"
	"os/exec"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	cpv1 "example.test/controlplane/gen/controlplane/v1"
)

// FakeDriver is a DriverPlugin server for tests. Delay slows every call down,
// to provoke the caller's timeout.
type FakeDriver struct {
	cpv1.UnimplementedDriverPluginServer
	Delay time.Duration

	mu      sync.Mutex
	started []string
	ready   bool
}

func (f *FakeDriver) Handshake(ctx context.Context, req *cpv1.HandshakeRequest) (*cpv1.HandshakeResponse, error) {
	time.Sleep(f.Delay) // OK: ctxless look-alike — a test double sleeping to provoke its client's timeout; test-support package (imports testing).
	return &cpv1.HandshakeResponse{Name: "fake", Version: "0.0.0"}, nil
}

func (f *FakeDriver) Fingerprint(ctx context.Context, _ *cpv1.FingerprintRequest) (*cpv1.FingerprintResponse, error) {
	out, err := exec.Command("uname", "-s").Output() // OK: ctxless look-alike — test-support package, not production.
	if err != nil {
		return nil, status.Errorf(codes.Internal, "uname: %v", err)
	}
	return &cpv1.FingerprintResponse{Attributes: map[string]string{"os": string(out)}}, nil
}

func (f *FakeDriver) StartTask(ctx context.Context, req *cpv1.StartTaskRequest) (*cpv1.StartTaskResponse, error) {
	for !f.isReady() {
		time.Sleep(10 * time.Millisecond) // OK: ctxless look-alike — poll loop in a fake's handler; test-support code is no request scope.
	}
	f.mu.Lock()
	f.started = append(f.started, req.GetTaskId())
	f.mu.Unlock()
	return &cpv1.StartTaskResponse{Handle: req.GetTaskId()}, nil
}

func (f *FakeDriver) isReady() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.ready
}

// SetReady lets StartTask calls through.
func (f *FakeDriver) SetReady() {
	f.mu.Lock()
	f.ready = true
	f.mu.Unlock()
}

// Started returns the task ids started so far.
func (f *FakeDriver) Started() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.started...)
}

// StartFakeDriver serves f on a loopback port and returns a connection to it.
func StartFakeDriver(t testing.TB, f *FakeDriver) *grpc.ClientConn {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer()
	cpv1.RegisterDriverPluginServer(s, f)
	go func() { _ = s.Serve(lis) }()
	t.Cleanup(s.Stop)
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

// MustHandshake handshakes with the plugin behind conn or fails the test.
func MustHandshake(t testing.TB, conn *grpc.ClientConn) string {
	t.Helper()
	resp, err := cpv1.NewDriverPluginClient(conn).Handshake(context.Background(), &cpv1.HandshakeRequest{ProtocolVersion: 2}) // OK: missingdeadline look-alike — test helper (takes testing.TB) in a test-support package.
	if err != nil {
		t.Fatalf("handshake: %v", err)
	}
	return resp.GetVersion()
}
