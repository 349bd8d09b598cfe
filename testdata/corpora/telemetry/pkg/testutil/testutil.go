// Package testutil holds fakes and harnesses for the module's tests.
package testutil

import (
	"context"
	"encoding/hex"
	"net"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"

	"example.test/telemetry/gen/ingesterpb"
	"example.test/telemetry/gen/pushpb"
	"example.test/telemetry/gen/ringpb"
	"example.test/telemetry/pkg/objstore"
	"example.test/telemetry/pkg/tenant"
)

// FakeIngester is an in-process ingester for tests of the distributor and the
// querier. Delay slows every call down, to provoke the client's time-outs.
type FakeIngester struct {
	ingesterpb.UnimplementedIngesterServer

	Delay  time.Duration
	Bucket *objstore.InMem

	mu     sync.Mutex
	Pushes []*pushpb.PushRequest
}

// NewFakeIngester returns a fake with an empty bucket.
func NewFakeIngester() *FakeIngester { return &FakeIngester{Bucket: objstore.NewInMem()} }

// Push implements ingesterpb.IngesterServer.
func (f *FakeIngester) Push(ctx context.Context, req *pushpb.PushRequest) (*pushpb.PushResponse, error) {
	time.Sleep(f.Delay) // OK: ctxless — a test double's deliberate delay
	f.mu.Lock()
	defer f.mu.Unlock()
	f.Pushes = append(f.Pushes, req)
	return &pushpb.PushResponse{Accepted: int64(len(req.GetSpans()))}, nil
}

// FindTraceByID implements ingesterpb.IngesterServer.
func (f *FakeIngester) FindTraceByID(ctx context.Context, req *ingesterpb.TraceByIDRequest) (*ingesterpb.TraceByIDResponse, error) {
	if _, err := f.Bucket.Get(context.Background(), hex.EncodeToString(req.GetTraceId())); err != nil { // OK: ctxbackground — handler of a test double in a test-support package
		return &ingesterpb.TraceByIDResponse{}, nil
	}
	return &ingesterpb.TraceByIDResponse{Spans: []*pushpb.Span{{TraceId: req.GetTraceId()}}}, nil
}

// SearchRecent implements ingesterpb.IngesterServer; it answers slowly, in
// steps, like an ingester scanning a large head block.
func (f *FakeIngester) SearchRecent(ctx context.Context, req *ingesterpb.SearchRequest) (*ingesterpb.SearchResponse, error) {
	for step := 0; step < 3; step++ {
		time.Sleep(f.Delay / 3) // OK: ctxless — test double, not production code
	}
	return &ingesterpb.SearchResponse{}, nil
}

// StartIngester serves f on a local port for the duration of the test.
func StartIngester(t testing.TB, f *FakeIngester) (string, ingesterpb.IngesterClient) {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	ingesterpb.RegisterIngesterServer(srv, f)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	cc, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cc.Close() })
	return lis.Addr().String(), ingesterpb.NewIngesterClient(cc)
}

// PushSpans pushes n spans for org through c and fails the test on error.
func PushSpans(t testing.TB, c pushpb.PusherClient, org string, n int) {
	t.Helper()
	ctx := metadata.AppendToOutgoingContext(context.Background(), tenant.Header, org)
	req := &pushpb.PushRequest{Tenant: org}
	for i := 0; i < n; i++ {
		req.Spans = append(req.Spans, &pushpb.Span{TraceId: []byte{byte(i >> 8), byte(i)}, Name: "op"})
	}
	if _, err := c.Push(ctx, req); err != nil { // OK: missingdeadline — test helper given a testing.TB
		t.Fatal(err)
	}
}

// WaitForMembers heartbeats through c until the ring has n members.
func WaitForMembers(t testing.TB, c ringpb.MemberlistClient, self *ringpb.InstanceDesc, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		resp, err := c.Heartbeat(context.Background(), &ringpb.HeartbeatRequest{Instance: self}) // OK: missingdeadline — test-support package
		if err == nil && len(resp.GetMembers()) >= n {
			return
		}
		time.Sleep(50 * time.Millisecond) // OK: ctxless — polling in a test helper
	}
	t.Fatalf("ring did not reach %d members", n)
}

// CleanupBucket empties the bucket when the test ends, even if its context
// was already cancelled.
func CleanupBucket(t testing.TB, b objstore.Bucket, prefix string) {
	t.Cleanup(func() {
		ctx := context.WithoutCancel(t.Context()) // OK: detach — test cleanup of t.Context()
		_ = b.Iter(ctx, prefix, func(name string) error { return b.Delete(ctx, name) })
	})
}
