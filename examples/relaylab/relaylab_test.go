package relaylab

import (
	"context"
	"net"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/connectivity"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/deadlinelint/deadlinelint/examples/relaylab/relayv1"
)

// The work each hop does, and the budget of scenarios 2 and 3. They follow
// the seed's lab (20/60/120ms, 150ms) with C's work and the budget raised
// so that every timing an assertion depends on has 160ms of slack, which
// keeps the tests stable on a loaded machine:
//   - A and B need 80ms of the 240ms budget, so B still reaches C in time;
//   - C gets at most 160ms of the 320ms it needs, so it runs out;
//   - in scenario 3, C answers at 400ms at the earliest, 160ms after the
//     deadline B no longer honours.
const (
	workA       = 20 * time.Millisecond
	workB       = 60 * time.Millisecond
	workC       = 320 * time.Millisecond
	tightBudget = 240 * time.Millisecond
)

// chain is a running A → B → C relay and the journal its hops write to.
type chain struct {
	client relayv1.RelayServiceClient // calls A
	log    *journal
}

// startChain starts C, B and A on loopback ports, each calling the next.
// If dropAt names a hop, that hop forwards with a fresh context.
func startChain(t *testing.T, dropAt string) *chain {
	t.Helper()
	log := newJournal()
	var next relayv1.RelayServiceClient
	for _, h := range []*hop{
		{name: "C", work: workC},
		{name: "B", work: workB},
		{name: "A", work: workA},
	} {
		h.next, h.log, h.dropDeadline = next, log, h.name == dropAt
		next = serve(t, h)
	}
	t.Cleanup(func() {
		// Let hops that ignored the deadline finish before the servers stop.
		if !log.waitIdle(2 * time.Second) {
			t.Error("some hop was still running 2s after the test")
		}
	})
	return &chain{client: next, log: log}
}

// serve runs h on a loopback port and returns a client connected to it.
func serve(t *testing.T, h *hop) relayv1.RelayServiceClient {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen for hop %s: %v", h.name, err)
	}
	srv := grpc.NewServer()
	relayv1.RegisterRelayServiceServer(srv, h)
	go func() { _ = srv.Serve(lis) }()
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatalf("dial hop %s: %v", h.name, err)
	}
	t.Cleanup(func() {
		_ = conn.Close()
		srv.Stop()
	})
	waitReady(t, conn)
	return relayv1.NewRelayServiceClient(conn)
}

// waitReady connects conn now, so that connecting is not part of the time
// a scenario measures.
func waitReady(t *testing.T, conn *grpc.ClientConn) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn.Connect()
	for state := conn.GetState(); state != connectivity.Ready; state = conn.GetState() {
		if !conn.WaitForStateChange(ctx, state) {
			t.Fatalf("connect to %s: still %v after 5s", conn.Target(), state)
		}
	}
}

// call sends one request into the chain with the given budget.
func (c *chain) call(budget time.Duration) (*relayv1.ForwardResponse, error) {
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	return c.client.Forward(ctx, &relayv1.ForwardRequest{})
}

// visit returns what hop name observed, failing the test if it never ran.
func (c *chain) visit(t *testing.T, name string) visit {
	t.Helper()
	v, ok := c.log.visit(name)
	if !ok {
		t.Fatalf("hop %s never ran", name)
	}
	return v
}

// Scenario 1: a budget big enough for the whole chain (which needs 400ms).
// The call succeeds and
// the budget shrinks as it moves: each hop sees what its caller had left,
// less at least (most of) the caller's own work.
func TestBudgetShrinksAlongTheChain(t *testing.T) {
	const budget = time.Second
	c := startChain(t, "")

	resp, err := c.call(budget)
	if err != nil {
		t.Fatalf("call with %v: %v, want success", budget, err)
	}
	if got, want := resp.GetRoute(), "A>B>C"; got != want {
		t.Errorf("route = %q, want %q", got, want)
	}

	a, b, cc := c.visit(t, "A"), c.visit(t, "B"), c.visit(t, "C")
	for name, v := range map[string]visit{"A": a, "B": b, "C": cc} {
		if !v.hasDeadline {
			t.Errorf("hop %s saw no deadline", name)
		}
		if v.late {
			t.Errorf("hop %s worked past its deadline", name)
		}
	}
	if a.budget > budget || a.budget < budget/2 {
		t.Errorf("A saw a budget of %v, want close to %v", a.budget, budget)
	}
	// A hop's budget is its caller's less the time the caller spent before
	// forwarding, at least the caller's work; half of that is asserted.
	if b.budget > a.budget-workA/2 {
		t.Errorf("B saw %v, want less than A's %v by at least %v", b.budget, a.budget, workA/2)
	}
	if cc.budget > b.budget-workB/2 {
		t.Errorf("C saw %v, want less than B's %v by at least %v", cc.budget, b.budget, workB/2)
	}
}

// Scenario 2: a budget too small for C. The client gets DeadlineExceeded,
// and because every hop selects on ctx.Done(), all of them stop at about
// the same moment: none answers after its caller gave up.
func TestTooLittleBudgetStopsEveryHop(t *testing.T) {
	const budget = tightBudget
	c := startChain(t, "")

	_, err := c.call(budget)
	if code := status.Code(err); code != codes.DeadlineExceeded {
		t.Fatalf("call with %v: code %v (%v), want DeadlineExceeded", budget, code, err)
	}
	if !c.log.waitIdle(time.Second) {
		t.Fatal("hops still running 1s after the client gave up")
	}
	for _, name := range []string{"A", "B", "C"} {
		v := c.visit(t, name)
		if !v.hasDeadline {
			t.Errorf("hop %s saw no deadline", name)
		}
		if v.late {
			t.Errorf("hop %s worked past its deadline", name)
		}
	}
	if cc := c.visit(t, "C"); cc.budget >= workC {
		t.Errorf("C saw %v, want less than the %v it needs", cc.budget, workC)
	}
}

// Scenario 3: the same budget, but B forwards to C with a fresh context.
// The client still gets DeadlineExceeded, but C runs with no deadline at
// all and B keeps waiting for it after its own caller has given up.
func TestDroppedDeadlineKeepsDownstreamWorking(t *testing.T) {
	const budget = tightBudget
	c := startChain(t, "B")

	_, err := c.call(budget)
	if code := status.Code(err); code != codes.DeadlineExceeded {
		t.Fatalf("call with %v: code %v (%v), want DeadlineExceeded", budget, code, err)
	}
	if !c.log.waitIdle(time.Second) {
		t.Fatal("hops still running 1s after the client gave up")
	}
	if cc := c.visit(t, "C"); cc.hasDeadline {
		t.Errorf("C saw a deadline of %v, want none: B forwarded a fresh context", cc.budget)
	}
	if b := c.visit(t, "B"); !b.late {
		t.Error("B did not work past its deadline, want it to wait for C after the client gave up")
	}
	for _, name := range []string{"A", "C"} {
		if c.visit(t, name).late {
			t.Errorf("hop %s worked past its deadline, want only B to", name)
		}
	}
}
