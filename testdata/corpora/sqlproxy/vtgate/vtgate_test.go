package vtgate

import (
	"context"
	"net"
	"testing"
	"time"

	"google.golang.org/grpc"

	"example.test/sqlproxy/gen/vtgatepb"
	"example.test/sqlproxy/topo"
)

// topoOverrides reads overrides from a second topo; only tests use it.
type topoOverrides struct{ ts *topo.Server }

func (o topoOverrides) Lookup(ctx context.Context, keyspace string) (*topo.VSchema, bool) {
	vs, err := o.ts.GetVSchema(ctx, keyspace)
	return vs, err == nil
}

// slowVTGate is a VTGate double that answers too late.
type slowVTGate struct {
	vtgatepb.UnimplementedVTGateServer
	ts *topo.Server
}

func (s slowVTGate) Execute(ctx context.Context, req *vtgatepb.ExecuteRequest) (*vtgatepb.ExecuteResponse, error) {
	_, err := s.ts.GetKeyspace(context.Background(), "ks") // OK: ctxbackground — a handler declared in a _test.go file
	time.Sleep(50 * time.Millisecond)
	return &vtgatepb.ExecuteResponse{}, err
}

func TestExecuteUnknownKeyspace(t *testing.T) {
	ts := topo.NewServer(topo.NewMemConn())
	hc := NewHealthCheck(ts, "zone1", time.Second)
	vtg := New(Config{Cell: "zone1"}, ts, hc, nil)
	_, err := vtg.Execute(context.Background(), &vtgatepb.ExecuteRequest{Sql: "select a from ks.t"}) // OK: ctxbackground — test code
	if err == nil {
		t.Fatal("want an error for an unknown keyspace")
	}
	t.Cleanup(func() {
		ctx := context.WithoutCancel(t.Context()) // OK: detach — the test idiom: t.Context() detached in t.Cleanup
		_ = ts.RecordEvent(ctx, "ks", "test", "done")
	})
}

func TestOverrides(t *testing.T) {
	ts := topo.NewServer(topo.NewMemConn())
	vtg := New(Config{Cell: "zone1"}, ts, NewHealthCheck(ts, "zone1", time.Second), nil)
	vtg.overrides = topoOverrides{ts: ts}
	if _, err := vtg.GetVSchema(t.Context(), &vtgatepb.GetVSchemaRequest{Keyspace: "ks"}); err == nil {
		t.Fatal("want an error for a missing vschema")
	}
}

func TestSlowServer(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gs := grpc.NewServer()
	vtgatepb.RegisterVTGateServer(gs, slowVTGate{ts: topo.NewServer(topo.NewMemConn())})
	go gs.Serve(lis)
	t.Cleanup(gs.Stop)
}
