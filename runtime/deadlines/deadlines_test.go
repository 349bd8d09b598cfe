package deadlines_test

import (
	"context"
	"net"
	"testing"
	"time"

	"go.uber.org/goleak"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/test/bufconn"

	"github.com/deadlinelint/deadlinelint/runtime/deadlines"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// seen is a health server that records the deadline each call arrives with.
type seen struct {
	healthpb.UnimplementedHealthServer
	deadline chan time.Duration // -1: none
}

func (s *seen) Check(ctx context.Context, _ *healthpb.HealthCheckRequest) (*healthpb.HealthCheckResponse, error) {
	s.note(ctx)
	return &healthpb.HealthCheckResponse{}, nil
}

func (s *seen) Watch(_ *healthpb.HealthCheckRequest, stream grpc.ServerStreamingServer[healthpb.HealthCheckResponse]) error {
	s.note(stream.Context())
	return stream.Send(&healthpb.HealthCheckResponse{})
}

func (s *seen) note(ctx context.Context) {
	d := time.Duration(-1)
	if dl, ok := ctx.Deadline(); ok {
		d = time.Until(dl)
	}
	s.deadline <- d
}

// serve runs s on bufconn with the server options and returns a client dialled with the dial
// options.
func serve(t *testing.T, s *seen, sopts []grpc.ServerOption, dopts ...grpc.DialOption) healthpb.HealthClient {
	t.Helper()
	lis := bufconn.Listen(1 << 16)
	srv := grpc.NewServer(sopts...)
	healthpb.RegisterHealthServer(srv, s)
	go func() { _ = srv.Serve(lis) }()
	cc, err := grpc.NewClient("passthrough:///seen", append(dopts,
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cc.Close(); srv.Stop() })
	return healthpb.NewHealthClient(cc)
}

func TestClientDefault(t *testing.T) {
	s := &seen{deadline: make(chan time.Duration, 1)}
	c := serve(t, s, nil, grpc.WithUnaryInterceptor(deadlines.UnaryClientInterceptor(2*time.Second)))

	if _, err := c.Check(context.Background(), &healthpb.HealthCheckRequest{}); err != nil {
		t.Fatal(err)
	}
	if d := <-s.deadline; d <= time.Second || d > 2*time.Second {
		t.Errorf("a call without a deadline arrived with %v, want the 2s default", d)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	if _, err := c.Check(ctx, &healthpb.HealthCheckRequest{}); err != nil {
		t.Fatal(err)
	}
	if d := <-s.deadline; d <= 0 || d > 500*time.Millisecond {
		t.Errorf("a call with a 500ms deadline arrived with %v, want its own", d)
	}
}

func TestServerDefault(t *testing.T) {
	s := &seen{deadline: make(chan time.Duration, 1)}
	c := serve(t, s, []grpc.ServerOption{
		grpc.UnaryInterceptor(deadlines.UnaryServerInterceptor(3 * time.Second)),
		grpc.StreamInterceptor(deadlines.StreamServerInterceptor(3 * time.Second)),
	})

	if _, err := c.Check(context.Background(), &healthpb.HealthCheckRequest{}); err != nil {
		t.Fatal(err)
	}
	if d := <-s.deadline; d <= 2*time.Second || d > 3*time.Second {
		t.Errorf("a request without a deadline ran with %v, want the 3s default", d)
	}
	stream, err := c.Watch(context.Background(), &healthpb.HealthCheckRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stream.Recv(); err != nil {
		t.Fatal(err)
	}
	if d := <-s.deadline; d <= 2*time.Second || d > 3*time.Second {
		t.Errorf("a stream without a deadline ran with %v, want the 3s default", d)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if _, err := c.Check(ctx, &healthpb.HealthCheckRequest{}); err != nil {
		t.Fatal(err)
	}
	if d := <-s.deadline; d <= 0 || d > time.Second {
		t.Errorf("a request with a 1s deadline ran with %v, want its own", d)
	}
}
