// Package storetest provides fakes and helpers for tests of the storage
// services.
package storetest

import (
	"context"
	"net"
	"testing"
	"time"

	"example.test/storage/gen/storagepb"
	"example.test/storage/internal/kv"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// FakeStore is a StoreService double backed by a kv.Store. Delay makes Get
// slow, to provoke client time-outs.
type FakeStore struct {
	storagepb.UnimplementedStoreServiceServer
	Delay   time.Duration
	Backing kv.Store
}

func (f *FakeStore) Get(ctx context.Context, req *storagepb.GetRequest) (*storagepb.GetResponse, error) {
	time.Sleep(f.Delay)                                              // OK: ctxless — a test double in a test-support package (imports testing)
	v, ver, err := f.Backing.Get(context.Background(), req.GetKey()) // OK: ctxbackground — test-support package: a fake server loses no caller's deadline
	if err != nil {
		return &storagepb.GetResponse{}, nil
	}
	return &storagepb.GetResponse{Found: true, Kv: &storagepb.KV{Key: req.GetKey(), Value: v, Version: ver}}, nil
}

func (f *FakeStore) Put(ctx context.Context, req *storagepb.PutRequest) (*storagepb.PutResponse, error) {
	ver, err := f.Backing.Put(ctx, req.GetKv().GetKey(), req.GetKv().GetValue())
	return &storagepb.PutResponse{Version: ver}, err
}

// Start serves srv on a loopback port for the duration of the test.
func Start(t testing.TB, srv *FakeStore) storagepb.StoreServiceClient {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gs := grpc.NewServer()
	storagepb.RegisterStoreServiceServer(gs, srv)
	go gs.Serve(lis)
	t.Cleanup(gs.Stop)
	cc, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	c := storagepb.NewStoreServiceClient(cc)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(t.Context()), time.Second) // OK: detach — t.Context() detached in t.Cleanup (test idiom), and bounded
		defer cancel()
		_, _ = c.Delete(ctx, &storagepb.DeleteRequest{Key: []byte("\x00canary")})
		cc.Close()
	})
	return c
}

// MustPut writes k=v through c or fails the test.
func MustPut(t testing.TB, c storagepb.StoreServiceClient, k, v string) {
	t.Helper()
	if _, err := c.Put(context.Background(), &storagepb.PutRequest{Kv: &storagepb.KV{Key: []byte(k), Value: []byte(v)}}); err != nil { // OK: missingdeadline — test code (a helper given testing.TB, in a test-support package)
		t.Fatal(err)
	}
}
