package relaylab

import (
	"context"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"

	"github.com/deadlinelint/deadlinelint/examples/relaylab/relayv1"
	"github.com/deadlinelint/deadlinelint/runtime/lab"
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

// startChain starts A → B → C in-process, wired by their register methods.
// If dropAt names a hop, that hop forwards with a fresh context.
func startChain(t *testing.T, dropAt string) *lab.Chain {
	var hops []lab.Hop
	for _, h := range []*hop{{name: "A", work: workA}, {name: "B", work: workB}, {name: "C", work: workC}} {
		h.dropDeadline = h.name == dropAt
		hops = append(hops, lab.Hop{Name: h.name, Register: h.register})
	}
	return lab.Start(t, hops)
}

// forward is the client's call into the chain.
func forward(route *string) func(ctx context.Context, cc *grpc.ClientConn) error {
	return func(ctx context.Context, cc *grpc.ClientConn) error {
		resp, err := relayv1.NewRelayServiceClient(cc).Forward(ctx, &relayv1.ForwardRequest{})
		*route = resp.GetRoute()
		return err
	}
}

// Scenario 1: a budget big enough for the whole chain (which needs 400ms).
// The call succeeds and the budget shrinks as it moves: each hop sees what
// its caller had left, less at least (most of) the caller's own work.
func TestBudgetShrinksAlongTheChain(t *testing.T) {
	const budget = time.Second
	var route string
	r := startChain(t, "").Call(budget, forward(&route))
	if r.Err != nil {
		t.Fatalf("call with %v: %v, want success\n%s", budget, r.Err, r)
	}
	if want := "A>B>C"; route != want {
		t.Errorf("route = %q, want %q", route, want)
	}
	r.CheckPropagated(t)
	if len(r.Visits) != 3 {
		t.Fatalf("%d handler runs, want 3\n%s", len(r.Visits), r)
	}
	a, b, c := r.Visits[0], r.Visits[1], r.Visits[2]
	if a.Deadline > budget || a.Deadline < budget/2 {
		t.Errorf("A saw a budget of %v, want close to %v", a.Deadline, budget)
	}
	// A hop's budget is its caller's less the time the caller spent before
	// forwarding, at least the caller's work; half of that is asserted.
	if b.Deadline > a.Deadline-workA/2 || c.Deadline > b.Deadline-workB/2 {
		t.Errorf("deadlines A %v, B %v, C %v: want each less than its caller's by half its caller's work\n%s", a.Deadline, b.Deadline, c.Deadline, r)
	}
}

// Scenario 2: a budget too small for C. The client gets DeadlineExceeded,
// and because every hop selects on ctx.Done(), all of them stop at about
// the same moment: none keeps working after its caller gave up.
func TestTooLittleBudgetStopsEveryHop(t *testing.T) {
	var route string
	r := startChain(t, "").Call(tightBudget, forward(&route))
	r.Check(t)
	if len(r.Visits) != 3 || r.Visits[2].Deadline >= workC {
		t.Errorf("want C reached with less than the %v it needs\n%s", workC, r)
	}
}

// Scenario 3: the same budget, but B forwards to C with a fresh context.
// The client still gets DeadlineExceeded, but C runs with no deadline at
// all and B keeps waiting for it after its own caller has given up: the
// lab's check fails, naming both.
func TestDroppedDeadlineKeepsDownstreamWorking(t *testing.T) {
	var route string
	r := startChain(t, "B").Call(tightBudget, forward(&route))
	if r.Code != codes.DeadlineExceeded {
		t.Fatalf("client got %v, want DeadlineExceeded\n%s", r.Code, r)
	}
	problems := strings.Join(r.Problems(), "\n")
	for _, want := range []string{"hop C saw no deadline", "hop B kept working", "hop C kept working"} {
		if !strings.Contains(problems, want) {
			t.Errorf("the lab's problems lack %q:\n%s", want, r)
		}
	}
	if strings.Contains(problems, "hop A") {
		t.Errorf("the lab blames hop A, which stopped with its ctx:\n%s", r)
	}
}
