package vtctld

import (
	"context"
	"testing"

	"example.test/sqlproxy/gen/adminpb"
	"example.test/sqlproxy/gen/tabletmanagerpb"
	"example.test/sqlproxy/testsupport/fakes"
	"example.test/sqlproxy/tmclient"
	"example.test/sqlproxy/topo"
	"example.test/sqlproxy/workflow"
)

func TestFakeTabletReload(t *testing.T) {
	ts := topo.NewServer(topo.NewMemConn())
	f := fakes.NewFakeTabletManager(t, ts)
	client := fakes.StartTabletManager(t, f)
	if _, err := client.ReloadSchema(context.Background(), &tabletmanagerpb.ReloadSchemaRequest{}); err != nil { // OK: missingdeadline — test code
		t.Fatal(err)
	}
}

func TestGetKeyspaceNotFound(t *testing.T) {
	ts := topo.NewServer(topo.NewMemConn())
	tmc := tmclient.New(0)
	s := NewServer(ts, tmc, workflow.NewEngine(ts, tmc))
	if _, err := s.GetKeyspace(context.Background(), &adminpb.GetKeyspaceRequest{Keyspace: "nope"}); err == nil { // OK: ctxbackground — test code
		t.Fatal("want NotFound")
	}
}
