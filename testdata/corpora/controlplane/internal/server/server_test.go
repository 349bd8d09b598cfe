package server

import (
	"context"
	"net"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	cpv1 "example.test/controlplane/gen/controlplane/v1"
	"example.test/controlplane/internal/store"
)

// slowJobs is a JobService double whose GetJob outlasts the client's budget.
type slowJobs struct {
	cpv1.UnimplementedJobServiceServer
	mem *store.MemStore
}

func (f *slowJobs) GetJob(ctx context.Context, req *cpv1.GetJobRequest) (*cpv1.GetJobResponse, error) {
	time.Sleep(50 * time.Millisecond)
	j, err := f.mem.GetJob(context.Background(), req.GetId()) // OK: ctxbackground look-alike — a handler declared in a _test.go file: test code.
	if err != nil {
		return nil, err
	}
	return &cpv1.GetJobResponse{Job: toProto(j)}, nil
}

func TestClientDeadline(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g := grpc.NewServer()
	mem := store.NewMemStore()
	_ = mem.PutJob(context.Background(), &store.Job{ID: "j1"})
	cpv1.RegisterJobServiceServer(g, &slowJobs{mem: mem})
	go func() { _ = g.Serve(lis) }()
	defer g.Stop()

	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if _, err := cpv1.NewJobServiceClient(conn).GetJob(ctx, &cpv1.GetJobRequest{Id: "j1"}); err == nil {
		t.Fatal("expected a deadline error")
	}
}
