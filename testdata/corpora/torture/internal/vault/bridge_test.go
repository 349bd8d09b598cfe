package vault

import (
	"context"
	"net"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	vaultv1 "example.test/torture/gen/vault/v1"
)

type describeOnly struct {
	vaultv1.UnimplementedVaultServiceServer
}

func (describeOnly) Describe(ctx context.Context, _ *vaultv1.DescribeRequest) (*vaultv1.DescribeResponse, error) {
	if _, ok := ctx.Deadline(); !ok {
		return &vaultv1.DescribeResponse{Version: "no-deadline"}, nil
	}
	return &vaultv1.DescribeResponse{Version: "test"}, nil
}

func dialBuf(t *testing.T, srv vaultv1.VaultServiceServer) *grpc.ClientConn {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	gs := grpc.NewServer()
	vaultv1.RegisterVaultServiceServer(gs, srv)
	go func() { _ = gs.Serve(lis) }()
	t.Cleanup(gs.Stop)
	conn, err := grpc.NewClient("passthrough:///bufnet",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

func TestBridgeProbe(t *testing.T) {
	conn := dialBuf(t, describeOnly{})
	if err := BridgeProbe(conn); err != nil {
		t.Fatalf("probe: %v", err)
	}
	client := vaultv1.NewVaultServiceClient(conn)
	resp, err := client.Describe(context.Background(), &vaultv1.DescribeRequest{}) // OK
	if err != nil {
		t.Fatal(err)
	}
	if resp.GetVersion() != "no-deadline" {
		t.Fatalf("version = %q", resp.GetVersion())
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if resp, err = client.Describe(ctx, &vaultv1.DescribeRequest{}); err != nil || resp.GetVersion() != "test" {
		t.Fatalf("describe with deadline: %v %v", resp, err)
	}
}

func TestShardOfStable(t *testing.T) {
	if shardOf("a/b") != shardOf("a/b") {
		t.Fatal("shardOf is not deterministic")
	}
}
