package proxy

import (
	"context"
	"net/http"
	"testing"
	"time"

	"google.golang.org/grpc"

	"example.test/vectordb/gen/vdbpb"
	"example.test/vectordb/internal/testutil"
)

// echoProxy is a handler declared in a test file.
type echoProxy struct {
	vdbpb.UnimplementedProxyServer
	healthURL string
}

func (e *echoProxy) Search(ctx context.Context, req *vdbpb.SearchRequest) (*vdbpb.SearchResponse, error) {
	for i := 0; i < 3; i++ {
		resp, err := http.Get(e.healthURL) // OK: ctxless — a handler declared in a _test.go file is test code
		if err == nil {
			resp.Body.Close()
			break
		}
		time.Sleep(10 * time.Millisecond) // OK: ctxless — test code
	}
	return &vdbpb.SearchResponse{Status: &vdbpb.Status{}}, nil
}

func TestMetaCacheFillsOnMiss(t *testing.T) {
	fake := &testutil.FakeRootCoord{}
	cc := testutil.StartServer(t, func(s *grpc.Server) {
		vdbpb.RegisterRootCoordServer(s, fake)
		vdbpb.RegisterProxyServer(s, &echoProxy{})
	})
	rootc := vdbpb.NewRootCoordClient(cc)
	if err := testutil.SeedCollections(rootc, "c1"); err != nil {
		t.Fatal(err)
	}
	m := newMetaCache(rootc, time.Minute)
	info, err := m.GetCollectionInfo(context.Background(), "default", "c1") // OK: ctxbackground — test code
	if err != nil {
		t.Fatal(err)
	}
	if info.GetName() != "c1" {
		t.Fatalf("got %q", info.GetName())
	}
	t.Cleanup(func() {
		ctx := context.WithoutCancel(t.Context())                          // OK: detach — the test's ctx detached in t.Cleanup
		_, _ = rootc.ShowCollections(ctx, &vdbpb.ShowCollectionsRequest{}) // OK: missingdeadline — test code
	})
}
