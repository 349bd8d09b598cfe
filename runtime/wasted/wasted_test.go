package wasted_test

import (
	"context"
	"net"
	"testing"
	"time"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.uber.org/goleak"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"

	"github.com/deadlinelint/deadlinelint/runtime/wasted"
	"github.com/deadlinelint/deadlinelint/runtime/wasted/wastedtest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// slow is a health server whose Check works for work, ignoring its ctx when ignore is set (the
// bug: a query with a fresh context, a loop that never checks), and stopping on it otherwise.
type slow struct {
	healthpb.UnimplementedHealthServer
	work   time.Duration
	ignore bool
	done   chan struct{}
}

func (s *slow) Check(ctx context.Context, _ *healthpb.HealthCheckRequest) (*healthpb.HealthCheckResponse, error) {
	defer func() { s.done <- struct{}{} }()
	if s.ignore {
		time.Sleep(s.work)
		return &healthpb.HealthCheckResponse{}, nil
	}
	select {
	case <-time.After(s.work):
		return &healthpb.HealthCheckResponse{}, nil
	case <-ctx.Done():
		return nil, status.FromContextError(ctx.Err()).Err()
	}
}

// serve runs s with the interceptors over bufconn and returns a client.
func serve(t *testing.T, s *slow, w *wasted.Interceptors) healthpb.HealthClient {
	t.Helper()
	lis := bufconn.Listen(1 << 16)
	srv := grpc.NewServer(grpc.ChainUnaryInterceptor(w.Unary()), grpc.ChainStreamInterceptor(w.Stream()))
	healthpb.RegisterHealthServer(srv, s)
	go func() { _ = srv.Serve(lis) }()
	cc, err := grpc.NewClient("passthrough:///slow",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cc.Close(); srv.Stop() })
	return healthpb.NewHealthClient(cc)
}

// collect reads the metrics of the health service's Check, the only method the tests call.
func collect(t *testing.T, r *sdkmetric.ManualReader) wastedtest.Method {
	t.Helper()
	all := wastedtest.Read(t, r)
	m := all["/grpc.health.v1.Health/Check"]
	delete(all, "/grpc.health.v1.Health/Check")
	if len(all) > 0 {
		t.Errorf("measurements of methods never called: %v", all)
	}
	return m
}

func TestWastedWorkIsCounted(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	w, err := wasted.New(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)))
	if err != nil {
		t.Fatal(err)
	}
	s := &slow{work: 300 * time.Millisecond, ignore: true, done: make(chan struct{}, 1)}
	c := serve(t, s, w)

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = c.Check(ctx, &healthpb.HealthCheckRequest{})
	if status.Code(err) != codes.DeadlineExceeded {
		t.Fatalf("call: %v, want DeadlineExceeded", err)
	}
	<-s.done // the handler finishes its useless work after the client gave up
	time.Sleep(10 * time.Millisecond)

	m := collect(t, reader)
	if m.Wasted != 1 || m.WastedSeconds < 0.1 || m.WastedSeconds > 1 {
		t.Errorf("%d wasted calls, %.3fs wasted, want 1 of about 0.25s", m.Wasted, m.WastedSeconds)
	}
	// The handler returned OK, but the caller had given up: the call ended for it.
	if m.Ended["DeadlineExceeded"]+m.Ended["Canceled"] != 1 {
		t.Errorf("ended calls %v, want one DeadlineExceeded or Canceled", m.Ended)
	}
}

func TestStoppedWorkIsNotWasted(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	w, err := wasted.New(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)), wasted.WithSlack(50*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	s := &slow{work: 300 * time.Millisecond, done: make(chan struct{}, 1)}
	c := serve(t, s, w)

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := c.Check(ctx, &healthpb.HealthCheckRequest{}); status.Code(err) != codes.DeadlineExceeded {
		t.Fatalf("call: %v, want DeadlineExceeded", err)
	}
	<-s.done
	time.Sleep(10 * time.Millisecond)

	m := collect(t, reader)
	if m.Wasted != 0 || m.WastedSeconds != 0 {
		t.Errorf("%d wasted calls (%.3fs): the handler stopped with its ctx", m.Wasted, m.WastedSeconds)
	}
	// The handler returns its ctx's error: DeadlineExceeded, or Canceled if the client's reset
	// of the stream arrived before the server's own deadline passed.
	if m.Ended["DeadlineExceeded"]+m.Ended["Canceled"] != 1 {
		t.Errorf("ended calls %v, want one DeadlineExceeded or Canceled", m.Ended)
	}
}

// A ctx with no deadline that is cancelled (the client went away) is watched: the wasted time is
// counted from the cancellation, and a handler that stops with it wastes nothing.
func TestCancelledWithoutDeadline(t *testing.T) {
	for _, tc := range []struct {
		name   string
		ignore bool
		calls  int64
	}{{"ignored", true, 1}, {"stopped", false, 0}} {
		t.Run(tc.name, func(t *testing.T) {
			reader := sdkmetric.NewManualReader()
			w, err := wasted.New(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)), wasted.WithSlack(20*time.Millisecond))
			if err != nil {
				t.Fatal(err)
			}
			s := &slow{work: 200 * time.Millisecond, ignore: tc.ignore, done: make(chan struct{}, 1)}
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(50*time.Millisecond, cancel)
			info := &grpc.UnaryServerInfo{FullMethod: "/grpc.health.v1.Health/Check"}
			_, _ = w.Unary()(ctx, &healthpb.HealthCheckRequest{}, info, func(ctx context.Context, req any) (any, error) {
				return s.Check(ctx, req.(*healthpb.HealthCheckRequest))
			})
			<-s.done

			m := collect(t, reader)
			if m.Wasted != tc.calls {
				t.Errorf("%d wasted calls, want %d", m.Wasted, tc.calls)
			}
			if tc.calls == 1 && (m.WastedSeconds < 0.1 || m.WastedSeconds > 0.2) {
				t.Errorf("%.3fs wasted, want about 0.15s", m.WastedSeconds)
			}
			if m.Ended["Canceled"] != 1 {
				t.Errorf("ended calls %v, want one Canceled", m.Ended)
			}
		})
	}
}

// BenchmarkInterceptor measures what the unary interceptor adds to a call, against the handler
// called bare, with the ctx a server gives a request with a deadline.
func BenchmarkInterceptor(b *testing.B) {
	w, err := wasted.New(sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader())))
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	info := &grpc.UnaryServerInfo{FullMethod: "/grpc.health.v1.Health/Check"}
	handler := func(ctx context.Context, req any) (any, error) { return req, nil }
	b.Run("bare", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			_, _ = handler(ctx, i)
		}
	})
	intercept := w.Unary()
	b.Run("wasted", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			_, _ = intercept(ctx, i, info, handler)
		}
	})
}
