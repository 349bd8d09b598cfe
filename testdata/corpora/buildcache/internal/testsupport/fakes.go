// Package testsupport holds fakes and harnesses for the cache's tests.
package testsupport

import (
	"context"
	"net"
	"testing"
	"time"

	"example.test/buildcache/gen/bcv1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// FakeCAS is a CAS double that can be told to be slow.
type FakeCAS struct {
	bcv1.UnimplementedContentAddressableStorageServer
	Delay time.Duration
	Blobs map[string][]byte
	Peer  bcv1.ContentAddressableStorageClient
}

func (f *FakeCAS) FindMissingBlobs(ctx context.Context, req *bcv1.FindMissingBlobsRequest) (*bcv1.FindMissingBlobsResponse, error) {
	for i := 0; i < 3; i++ {
		time.Sleep(f.Delay) // OK: ctxless — a test double provoking its client's timeout
	}
	if f.Peer != nil {
		_, _ = f.Peer.GetCapabilities(context.Background(), &bcv1.GetCapabilitiesRequest{}) // OK: ctxbackground — test-support package
	}
	return &bcv1.FindMissingBlobsResponse{}, nil
}

func (f *FakeCAS) BatchReadBlobs(ctx context.Context, req *bcv1.BatchReadBlobsRequest) (*bcv1.BatchReadBlobsResponse, error) {
	out := &bcv1.BatchReadBlobsResponse{}
	for _, d := range req.GetDigests() {
		out.Blobs = append(out.Blobs, &bcv1.Blob{Digest: d, Data: f.Blobs[d.GetHash()]})
	}
	return out, nil
}

// StartCAS serves srv on a loopback listener and returns a client.
func StartCAS(t testing.TB, srv bcv1.ContentAddressableStorageServer) bcv1.ContentAddressableStorageClient {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gs := grpc.NewServer()
	bcv1.RegisterContentAddressableStorageServer(gs, srv)
	go gs.Serve(lis)
	t.Cleanup(gs.Stop)
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	c := bcv1.NewContentAddressableStorageClient(conn)
	if _, err := c.GetCapabilities(context.Background(), &bcv1.GetCapabilitiesRequest{}); err != nil { // OK: missingdeadline — test harness
		t.Logf("caps: %v", err)
	}
	return c
}

// Seed uploads blobs through c.
func Seed(t testing.TB, c bcv1.ContentAddressableStorageClient, blobs map[string][]byte) {
	req := &bcv1.BatchUpdateBlobsRequest{}
	for h, b := range blobs {
		req.Blobs = append(req.Blobs, &bcv1.Blob{Digest: &bcv1.Digest{Hash: h}, Data: b})
	}
	if _, err := c.BatchUpdateBlobs(context.Background(), req); err != nil { // OK: missingdeadline — test helper given a testing.TB
		t.Fatal(err)
	}
}
