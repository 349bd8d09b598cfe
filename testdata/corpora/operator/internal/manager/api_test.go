package manager

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	clusterv1 "example.test/operator/gen/cluster/v1"
	"example.test/operator/internal/nodeagent"
	"example.test/operator/internal/store"
)

type fixedLeader bool

func (f fixedLeader) IsLeader() bool { return bool(f) }

func newTestServer(t *testing.T) *ClusterServer {
	t.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	m := New(Config{OperationTTL: time.Minute, ResyncPeriod: time.Minute}, store.New(nil), nodeagent.NewPool(nodeagent.Options{}), log)
	return NewClusterServer(m, nil, fixedLeader(true), log)
}

func TestGetOperationUnknown(t *testing.T) {
	s := newTestServer(t)
	_, err := s.GetOperation(context.Background(), &clusterv1.GetOperationRequest{Id: "op-missing"}) // OK: test
	if status.Code(err) != codes.NotFound {
		t.Fatalf("code = %v, want NotFound", status.Code(err))
	}
}

func TestRegisterNodeValidates(t *testing.T) {
	s := newTestServer(t)
	_, err := s.RegisterNode(context.Background(), &clusterv1.RegisterNodeRequest{Hostname: "n1"}) // OK: test
	if status.Code(err) != codes.InvalidArgument {
		t.Fatalf("code = %v, want InvalidArgument", status.Code(err))
	}
}

func TestCordonNeedsRole(t *testing.T) {
	s := newTestServer(t)
	_, err := s.CordonNode(context.Background(), &clusterv1.CordonNodeRequest{Name: "n1"}) // OK: test
	if status.Code(err) != codes.PermissionDenied {
		t.Fatalf("code = %v, want PermissionDenied", status.Code(err))
	}
}

func TestPlacements(t *testing.T) {
	s := newTestServer(t)
	s.m.setPlacements("web", []Placement{{Workload: "web", Node: "n1"}, {Workload: "web", Ordinal: 1, Node: "n2"}})
	s.m.setPlacements("db", []Placement{{Workload: "db", Node: "n2"}})
	if got := s.m.workloadsOn("n2"); len(got) != 2 || got[0] != "db" || got[1] != "web" {
		t.Fatalf("workloadsOn(n2) = %v", got)
	}
	if got := s.m.Placements("web"); len(got) != 2 {
		t.Fatalf("Placements(web) = %v", got)
	}
}
