package xds

import (
	"context"
	"testing"
	"time"

	"example.test/mesh/gen/discoveryv1"
)

// recordingADS is a discovery server double that records what it was asked.
type recordingADS struct {
	discoveryv1.UnimplementedAggregatedDiscoveryServiceServer
	cache *SnapshotCache
}

func (r *recordingADS) FetchResources(ctx context.Context, req *discoveryv1.DiscoveryRequest) (*discoveryv1.DiscoveryResponse, error) {
	wctx, cancel := context.WithTimeout(context.Background(), time.Second) // OK: ctxbackground — a handler declared in a _test.go file is test code
	defer cancel()
	select {
	case resp := <-r.cache.CreateWatch(wctx, req.GetNode().GetId(), req.GetTypeUrl(), ""):
		return resp, nil
	case <-wctx.Done():
		return nil, wctx.Err()
	}
}

func TestCreateWatchAnswersOnSnapshot(t *testing.T) {
	c := NewSnapshotCache()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := c.CreateWatch(ctx, "n1", TypeTrafficPolicy, "")
	c.SetSnapshot("n1", &Snapshot{Version: "1", Resources: map[string][]*discoveryv1.Resource{TypeTrafficPolicy: {{Name: "p"}}}})
	select {
	case resp := <-ch:
		if resp.GetVersionInfo() != "1" || len(resp.GetResources()) != 1 {
			t.Fatalf("unexpected response %v", resp)
		}
	case <-time.After(time.Second):
		t.Fatal("watch not answered")
	}
}

func TestRecordingADS(t *testing.T) {
	c := NewSnapshotCache()
	c.SetSnapshot("n1", &Snapshot{Version: "2"})
	r := &recordingADS{cache: c}
	resp, err := r.FetchResources(t.Context(), &discoveryv1.DiscoveryRequest{Node: &discoveryv1.Node{Id: "n1"}, TypeUrl: TypeTrafficPolicy})
	if err != nil || resp.GetVersionInfo() != "2" {
		t.Fatalf("fetch: %v %v", resp, err)
	}
}
