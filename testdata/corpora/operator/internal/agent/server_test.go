package agent

import (
	"context"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"

	agentv1 "example.test/operator/gen/agent/v1"
	"example.test/operator/internal/agent/runtime"
	"example.test/operator/internal/journal"
)

func startAgent(t *testing.T) agentv1.AgentServiceClient {
	t.Helper()
	j, err := journal.Open(filepath.Join(t.TempDir(), "journal.log"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	srv := NewServer("test-node", &runtime.Ctr{Bin: "/bin/false", Namespace: "test"}, j, []string{"echo"}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	lis := bufconn.Listen(1 << 20)
	gs := grpc.NewServer()
	agentv1.RegisterAgentServiceServer(gs, srv)
	go gs.Serve(lis)
	t.Cleanup(gs.Stop)
	conn, err := grpc.NewClient("passthrough:///bufnet",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return agentv1.NewAgentServiceClient(conn)
}

func TestRunCommandAllowList(t *testing.T) {
	c := startAgent(t)
	_, err := c.RunCommand(context.Background(), &agentv1.RunCommandRequest{Argv: []string{"rm", "-rf", "/"}}) // OK: test
	if status.Code(err) != codes.PermissionDenied {
		t.Fatalf("code = %v, want PermissionDenied", status.Code(err))
	}
}

func TestPullImageRejectsBadRef(t *testing.T) {
	c := startAgent(t)
	_, err := c.PullImage(context.Background(), &agentv1.PullImageRequest{Image: "nginx; reboot"}) // OK: test
	if status.Code(err) != codes.InvalidArgument {
		t.Fatalf("code = %v, want InvalidArgument", status.Code(err))
	}
}

func TestStreamLogsNeedsUnit(t *testing.T) {
	c := startAgent(t)
	stream, err := c.StreamLogs(context.Background(), &agentv1.StreamLogsRequest{}) // OK: test, streaming
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stream.Recv(); status.Code(err) != codes.InvalidArgument {
		t.Fatalf("code = %v, want InvalidArgument", status.Code(err))
	}
}
