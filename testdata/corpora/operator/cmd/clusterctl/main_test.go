package main

import (
	"context"
	"net"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	clusterv1 "example.test/operator/gen/cluster/v1"
)

// fakeCluster answers from fixed data.
type fakeCluster struct {
	clusterv1.UnimplementedClusterServiceServer
}

func (fakeCluster) GetNode(_ context.Context, req *clusterv1.GetNodeRequest) (*clusterv1.Node, error) {
	return &clusterv1.Node{Name: req.GetName(), Phase: clusterv1.NodePhase_NODE_PHASE_READY, Address: "10.0.0.7:7450"}, nil
}

func (fakeCluster) ListNodes(context.Context, *clusterv1.ListNodesRequest) (*clusterv1.ListNodesResponse, error) {
	return &clusterv1.ListNodesResponse{Nodes: []*clusterv1.Node{{Name: "n1"}, {Name: "n2"}}, Total: 2}, nil
}

func client(t *testing.T) clusterv1.ClusterServiceClient {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	gs := grpc.NewServer()
	clusterv1.RegisterClusterServiceServer(gs, fakeCluster{})
	go gs.Serve(lis)
	t.Cleanup(gs.Stop)
	conn, err := grpc.NewClient("passthrough:///bufnet",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return clusterv1.NewClusterServiceClient(conn)
}

func TestGetNode(t *testing.T) {
	c := client(t)
	if err := getNode(context.Background(), c, []string{"n1"}); err != nil { // OK: test file
		t.Fatal(err)
	}
	n, err := c.GetNode(context.Background(), &clusterv1.GetNodeRequest{Name: "n1"}) // OK: test file
	if err != nil || n.GetName() != "n1" {
		t.Fatalf("GetNode = %v, %v", n, err)
	}
}

func TestListNodes(t *testing.T) {
	c := client(t)
	if err := listNodes(context.Background(), c, time.Second); err != nil { // OK: test file
		t.Fatal(err)
	}
}
