// Package testutil holds the fakes and harnesses the cluster's tests use.
package testutil

import (
	"context"
	"net"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"

	"example.test/vectordb/gen/vdbpb"
	"example.test/vectordb/internal/storage"
)

// StartServer serves what register registers on an in-memory listener and
// returns a client connection to it. The server stops with the test.
func StartServer(t testing.TB, register func(*grpc.Server)) *grpc.ClientConn {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	srv := grpc.NewServer()
	register(srv)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	cc, err := grpc.NewClient("passthrough:///bufnet",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatalf("dial bufnet: %v", err)
	}
	t.Cleanup(func() { _ = cc.Close() })
	return cc
}

// MustCreateCollection creates a collection through the proxy or fails the test.
func MustCreateCollection(t testing.TB, c vdbpb.ProxyClient, db, name string) {
	t.Helper()
	if _, err := c.CreateCollection(context.Background(), &vdbpb.CreateCollectionRequest{Db: db, Name: name, Dim: 8, Shards: 1}); err != nil { // OK: missingdeadline — a test helper (takes testing.TB)
		t.Fatalf("create collection %s: %v", name, err)
	}
}

// SeedCollections creates collections on a root coordinator.
func SeedCollections(c vdbpb.RootCoordClient, names ...string) error {
	for _, n := range names {
		if _, err := c.CreateCollection(context.Background(), &vdbpb.CreateCollectionRequest{Db: "default", Name: n, Dim: 8}); err != nil { // OK: missingdeadline — every function of a test-support package is test code
			return err
		}
	}
	return nil
}

// FakeRootCoord is a root coordinator double. Delay makes every call slow,
// to provoke its client's timeout.
type FakeRootCoord struct {
	vdbpb.UnimplementedRootCoordServer

	Delay time.Duration
	Store *storage.MetaKV

	mu          sync.Mutex
	Collections map[string]*vdbpb.CollectionInfo
	Paused      bool
	nextID      int64
}

func (f *FakeRootCoord) CreateCollection(ctx context.Context, req *vdbpb.CreateCollectionRequest) (*vdbpb.Status, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.Collections == nil {
		f.Collections = map[string]*vdbpb.CollectionInfo{}
	}
	f.nextID++
	f.Collections[req.GetDb()+"."+req.GetName()] = &vdbpb.CollectionInfo{Id: f.nextID, Name: req.GetName(), Db: req.GetDb(), Dim: req.GetDim(), Vchannels: []string{"fake-dml_0v"}}
	return &vdbpb.Status{}, nil
}

func (f *FakeRootCoord) DescribeCollection(ctx context.Context, req *vdbpb.DescribeCollectionRequest) (*vdbpb.DescribeCollectionResponse, error) {
	time.Sleep(f.Delay) // OK: ctxless — a test double sleeping to provoke its client's timeout
	f.mu.Lock()
	info, ok := f.Collections[req.GetDb()+"."+req.GetName()]
	f.mu.Unlock()
	if !ok {
		return nil, status.Errorf(codes.NotFound, "collection %s", req.GetName())
	}
	return &vdbpb.DescribeCollectionResponse{Status: &vdbpb.Status{}, Info: info}, nil
}

func (f *FakeRootCoord) ShowCollections(ctx context.Context, req *vdbpb.ShowCollectionsRequest) (*vdbpb.ShowCollectionsResponse, error) {
	for f.isPaused() {
		time.Sleep(10 * time.Millisecond) // OK: ctxless — a poll in a test double (test-support package)
	}
	resp := &vdbpb.ShowCollectionsResponse{Status: &vdbpb.Status{}}
	f.mu.Lock()
	for _, c := range f.Collections {
		resp.Names = append(resp.Names, c.GetName())
		resp.Ids = append(resp.Ids, c.GetId())
	}
	f.mu.Unlock()
	return resp, nil
}

func (f *FakeRootCoord) GetCredential(ctx context.Context, req *vdbpb.GetCredentialRequest) (*vdbpb.GetCredentialResponse, error) {
	if f.Store == nil {
		return &vdbpb.GetCredentialResponse{Status: &vdbpb.Status{}, Username: req.GetUsername()}, nil
	}
	hash, err := f.Store.Load(context.Background(), "credential/"+req.GetUsername()) // OK: ctxbackground — a test double in a test-support package
	if err != nil {
		return nil, status.Errorf(codes.Internal, "fake credential: %v", err) // OK: statusmask — test-support package
	}
	return &vdbpb.GetCredentialResponse{Status: &vdbpb.Status{}, Username: req.GetUsername(), PasswordHash: hash}, nil
}

func (f *FakeRootCoord) AllocID(ctx context.Context, req *vdbpb.AllocIDRequest) (*vdbpb.AllocIDResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	begin := f.nextID + 1
	f.nextID += int64(req.GetCount())
	return &vdbpb.AllocIDResponse{Status: &vdbpb.Status{}, Begin: begin, Count: req.GetCount()}, nil
}

func (f *FakeRootCoord) isPaused() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.Paused
}

// FakeStreamingNode records appends.
type FakeStreamingNode struct {
	vdbpb.UnimplementedStreamingNodeServer

	mu       sync.Mutex
	Appended []*vdbpb.WALMessage
	Store    *storage.ChunkManager
}

func (f *FakeStreamingNode) Append(ctx context.Context, req *vdbpb.AppendRequest) (*vdbpb.AppendResponse, error) {
	f.mu.Lock()
	f.Appended = append(f.Appended, req.GetMessages()...)
	n := len(f.Appended)
	f.mu.Unlock()
	if f.Store != nil {
		go func() {
			_ = f.Store.Write(context.WithoutCancel(ctx), "fake-wal/"+req.GetVchannel(), nil) // OK: detach — a test double in a test-support package
		}()
	}
	return &vdbpb.AppendResponse{Status: &vdbpb.Status{}, LastTs: uint64(n)}, nil
}

func (f *FakeStreamingNode) AssignmentDiscover(ctx context.Context, _ *vdbpb.DiscoverRequest) (*vdbpb.DiscoverResponse, error) {
	return &vdbpb.DiscoverResponse{Assignments: []*vdbpb.Assignment{{Pchannel: "fake-dml_0", Addr: "passthrough:///bufnet"}}}, nil
}
