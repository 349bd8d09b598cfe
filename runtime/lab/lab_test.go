package lab_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/deadlinelint/deadlinelint/runtime/internal/testchain"
	"github.com/deadlinelint/deadlinelint/runtime/lab"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// relay is the article's chain: A works 20ms, B 60ms, C 120ms; B drops the deadline if told to.
func relay(dropAtB bool) []lab.Hop {
	a := &testchain.Hop{Work: 20 * time.Millisecond}
	b := &testchain.Hop{Work: 60 * time.Millisecond, DropDeadline: dropAtB}
	c := &testchain.Hop{Work: 120 * time.Millisecond}
	return []lab.Hop{{Name: "A", Register: a.Register}, {Name: "B", Register: b.Register}, {Name: "C", Register: c.Register}}
}

func check(ctx context.Context, cc *grpc.ClientConn) error {
	_, err := healthpb.NewHealthClient(cc).Check(ctx, &healthpb.HealthCheckRequest{})
	return err
}

// recorder is a testing.TB that keeps what a check reported instead of failing the test.
type recorder struct {
	testing.TB
	mu     sync.Mutex
	errors []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

// deadlines returns the deadline each hop saw first, in chain order.
func deadlines(t *testing.T, r *lab.Report) []time.Duration {
	t.Helper()
	var out []time.Duration
	seen := map[string]bool{}
	for _, v := range r.Visits {
		if seen[v.Hop] {
			continue
		}
		seen[v.Hop] = true
		if !v.HasDeadline {
			t.Fatalf("hop %s saw no deadline\n%s", v.Hop, r)
		}
		out = append(out, v.Deadline)
	}
	return out
}

// Scenario 1: a budget big enough for the whole chain.
func TestEnoughBudget(t *testing.T) {
	chain := lab.Start(t, relay(false))
	r := chain.Call(time.Second, check)
	if r.Err != nil {
		t.Fatalf("call: %v, want OK\n%s", r.Err, r)
	}
	r.CheckPropagated(t)
	ds := deadlines(t, r)
	if len(ds) != 3 {
		t.Fatalf("%d hops reached, want 3\n%s", len(ds), r)
	}
	// A's deadline is at most the budget, and each hop's is smaller by at least its caller's work.
	if ds[0] > time.Second || ds[1] > ds[0]-20*time.Millisecond || ds[2] > ds[1]-60*time.Millisecond {
		t.Errorf("deadlines %v, want under 1s and shrinking by each hop's work\n%s", ds, r)
	}
	rec := &recorder{TB: t}
	r.Check(rec)
	if len(rec.errors) != 1 || !strings.Contains(rec.errors[0], "the client got OK, want DeadlineExceeded") {
		t.Errorf("Check of a call that succeeded reported %q, want that the client got OK", rec.errors)
	}
}

// Scenario 2: a budget too small; every hop gives up with the client.
func TestTooLittleBudget(t *testing.T) {
	chain := lab.Start(t, relay(false))
	r := chain.Call(150*time.Millisecond, check)
	if r.Code != codes.DeadlineExceeded {
		t.Fatalf("client got %v, want DeadlineExceeded\n%s", r.Code, r)
	}
	r.Check(t)
	if ds := deadlines(t, r); len(ds) != 3 || ds[0] > 150*time.Millisecond || ds[1] >= ds[0] || ds[2] >= ds[1] {
		t.Errorf("deadlines %v, want three, each smaller than its caller's\n%s", ds, r)
	}
	for _, v := range r.Visits {
		if v.WorkedAfterDone != 0 || !v.Finished {
			t.Errorf("hop %s kept working %v after its ctx was done\n%s", v.Hop, v.WorkedAfterDone, r)
		}
	}
}

// Scenario 3: B calls C with a fresh context. The check fails, and its message names the hops.
func TestLostDeadline(t *testing.T) {
	chain := lab.Start(t, relay(true))
	r := chain.Call(150*time.Millisecond, check)
	if r.Code != codes.DeadlineExceeded {
		t.Fatalf("client got %v, want DeadlineExceeded\n%s", r.Code, r)
	}
	rec := &recorder{TB: t}
	r.Check(rec)
	if len(rec.errors) != 1 {
		t.Fatalf("Check reported %d failures, want 1: %q", len(rec.errors), rec.errors)
	}
	msg := rec.errors[0]
	for _, want := range []string{
		"hop C saw no deadline: its caller dropped it",
		"hop B kept working ",                                    // waiting for C after its ctx was done
		"hop C kept working ",                                    // its full 120ms, for nobody
		"lab: a call with a 150ms deadline got DeadlineExceeded", // the table
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("Check's message lacks %q:\n%s", want, msg)
		}
	}
	for _, v := range r.Visits {
		if v.Hop == "A" && v.WorkedAfterDone != 0 {
			t.Errorf("hop A stopped with its ctx, but the report says it kept working %v\n%s", v.WorkedAfterDone, r)
		}
		if v.Hop == "C" && !v.CtxNeverDone {
			t.Errorf("hop C's ctx was never done, but the report says it was\n%s", r)
		}
	}
}

// Streaming methods are observed as unary ones are.
func TestStreaming(t *testing.T) {
	chain := lab.Start(t, relay(false))
	r := chain.Call(time.Second, func(ctx context.Context, cc *grpc.ClientConn) error {
		stream, err := healthpb.NewHealthClient(cc).Watch(ctx, &healthpb.HealthCheckRequest{})
		if err != nil {
			return err
		}
		_, err = stream.Recv()
		return err
	})
	if r.Err != nil {
		t.Fatalf("call: %v\n%s", r.Err, r)
	}
	r.CheckPropagated(t)
	if len(r.Visits) == 0 || r.Visits[0].Method != "/grpc.health.v1.Health/Watch" || !r.Visits[0].HasDeadline {
		t.Errorf("first visit %+v, want A's Watch with a deadline\n%s", r.Visits, r)
	}
}

// A hop still running at the settle time is reported as such, and the chain still stops.
func TestStillRunning(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	hung := &hungHop{block: block}
	chain := lab.Start(t, []lab.Hop{{Name: "H", Register: func(s *grpc.Server, _ grpc.ClientConnInterface) {
		healthpb.RegisterHealthServer(s, hung)
	}}}, lab.WithSettle(100*time.Millisecond))
	// A deadline with room for the call to reach the hop on a loaded machine under -race: the
	// hop must start before the deadline for the lab to see it keep working.
	r := chain.Call(time.Second, check)
	if r.Settled {
		t.Fatalf("the report says every handler returned\n%s", r)
	}
	if p := strings.Join(r.Problems(), "\n"); !strings.Contains(p, "hop H was still running 100ms after the call") {
		t.Errorf("problems %q, want hop H still running", p)
	}
}

type hungHop struct {
	healthpb.UnimplementedHealthServer
	block chan struct{}
}

func (h *hungHop) Check(context.Context, *healthpb.HealthCheckRequest) (*healthpb.HealthCheckResponse, error) {
	<-h.block
	return &healthpb.HealthCheckResponse{}, nil
}

func TestNoHops(t *testing.T) {
	if _, err := lab.New(nil); err == nil || !strings.Contains(err.Error(), "at least one hop") {
		t.Errorf("New(nil) = %v, want an error", err)
	}
}
