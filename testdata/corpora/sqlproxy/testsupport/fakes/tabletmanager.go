// Package fakes holds test doubles of the proxy's services and helpers to
// serve them on a local port.
package fakes

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

	"example.test/sqlproxy/gen/querypb"
	"example.test/sqlproxy/gen/tabletmanagerpb"
	"example.test/sqlproxy/topo"
)

// FakeTabletManager is a TabletManager double. Calls records the methods
// called; Delay slows Ping down so that a test can provoke its client's
// timeout.
type FakeTabletManager struct {
	tabletmanagerpb.UnimplementedTabletManagerServer

	TS        *topo.Server
	Delay     time.Duration
	Schema    []*tabletmanagerpb.TableDefinition
	SchemaErr error

	ctx context.Context

	mu    sync.Mutex
	Calls []string
}

// NewFakeTabletManager returns a fake whose lifetime is the test's.
func NewFakeTabletManager(t testing.TB, ts *topo.Server) *FakeTabletManager {
	return &FakeTabletManager{TS: ts, ctx: t.Context()}
}

func (f *FakeTabletManager) record(name string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.Calls = append(f.Calls, name)
}

// Ping answers after Delay.
func (f *FakeTabletManager) Ping(ctx context.Context, req *tabletmanagerpb.PingRequest) (*tabletmanagerpb.PingResponse, error) {
	f.record("Ping")
	for slept := time.Duration(0); slept < f.Delay; slept += 10 * time.Millisecond {
		time.Sleep(10 * time.Millisecond) // OK: ctxless — a test double in a test-support package (it imports testing)
	}
	return &tabletmanagerpb.PingResponse{Payload: req.GetPayload()}, nil
}

// ReloadSchema records an event in the fake topo.
func (f *FakeTabletManager) ReloadSchema(ctx context.Context, _ *tabletmanagerpb.ReloadSchemaRequest) (*tabletmanagerpb.ReloadSchemaResponse, error) {
	f.record("ReloadSchema")
	if err := f.TS.RecordEvent(context.Background(), "fake", "ReloadSchema", ""); err != nil { // OK: ctxbackground — a test-support package
		return nil, err
	}
	return &tabletmanagerpb.ReloadSchemaResponse{}, nil
}

// GetSchema returns Schema, or SchemaErr.
func (f *FakeTabletManager) GetSchema(ctx context.Context, _ *tabletmanagerpb.GetSchemaRequest) (*tabletmanagerpb.GetSchemaResponse, error) {
	f.record("GetSchema")
	if _, err := f.TS.GetKeyspace(ctx, "fake"); err != nil {
		return nil, status.Errorf(codes.Internal, "fake topo: %v", err) // OK: statusmask — a test-support package
	}
	return &tabletmanagerpb.GetSchemaResponse{Tables: f.Schema}, f.SchemaErr
}

// ChangeType updates the fake tablet record.
func (f *FakeTabletManager) ChangeType(ctx context.Context, req *tabletmanagerpb.ChangeTypeRequest) (*tabletmanagerpb.ChangeTypeResponse, error) {
	f.record("ChangeType")
	if err := f.TS.UpdateTabletType(f.ctx, "fake-100", req.GetTabletType()); err != nil { // OK: ctxflow — a test-support package
		return nil, err
	}
	go f.TS.RecordEvent(context.WithoutCancel(ctx), "fake", "ChangeType", req.GetTabletType()) // OK: detach — a test-support package
	return &tabletmanagerpb.ChangeTypeResponse{}, nil
}

// ExecuteHook echoes the hook's name.
func (f *FakeTabletManager) ExecuteHook(ctx context.Context, req *tabletmanagerpb.ExecuteHookRequest) (*tabletmanagerpb.ExecuteHookResponse, error) {
	f.record("ExecuteHook")
	out, err := exec.Command("echo", req.GetName()).Output() // OK: ctxless — a test-support package
	if err != nil {
		return nil, err
	}
	return &tabletmanagerpb.ExecuteHookResponse{Stdout: string(out)}, nil
}

// StartTabletManager serves f on a local port until the test ends and
// returns a client of it, once it answers.
func StartTabletManager(t testing.TB, f *FakeTabletManager) tabletmanagerpb.TabletManagerClient {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gs := grpc.NewServer()
	tabletmanagerpb.RegisterTabletManagerServer(gs, f)
	go gs.Serve(lis)
	t.Cleanup(gs.Stop)
	cc, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cc.Close() })
	client := tabletmanagerpb.NewTabletManagerClient(cc)
	if _, err := client.Ping(context.Background(), &tabletmanagerpb.PingRequest{Payload: "ready"}); err != nil { // OK: missingdeadline — a function run by a test, in a test-support package
		t.Fatalf("fake tablet manager does not answer: %v", err)
	}
	return client
}

// FakeQueryService answers every Execute with Result after Delay.
type FakeQueryService struct {
	querypb.UnimplementedQueryServer

	Result *querypb.QueryResult
	Delay  time.Duration
	Err    error
}

// Execute answers after Delay.
func (f *FakeQueryService) Execute(ctx context.Context, _ *querypb.ExecuteRequest) (*querypb.ExecuteResponse, error) {
	time.Sleep(f.Delay)
	if f.Err != nil {
		return nil, f.Err
	}
	return &querypb.ExecuteResponse{Result: f.Result}, nil
}
