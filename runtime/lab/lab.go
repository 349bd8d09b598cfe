// Package lab is the Go article's lab as a test helper: it runs your real gRPC handlers as a
// chain of in-process hops over bufconn, calls the first hop with a short deadline through your
// real client, and checks the three things the article asks of every chain — the client sees
// DeadlineExceeded, each hop saw a smaller remaining deadline than the hop before it, and no hop
// kept working after its ctx was done.
//
//	chain := lab.Start(t, []lab.Hop{
//		{Name: "A", Register: func(s *grpc.Server, next grpc.ClientConnInterface) {
//			orderspb.RegisterOrdersServer(s, orders.New(inventorypb.NewInventoryClient(next)))
//		}},
//		{Name: "B", Register: func(s *grpc.Server, next grpc.ClientConnInterface) {
//			inventorypb.RegisterInventoryServer(s, inventory.New(db))
//		}},
//	})
//	report := chain.Call(150*time.Millisecond, func(ctx context.Context, cc *grpc.ClientConn) error {
//		_, err := orderspb.NewOrdersClient(cc).Place(ctx, &orderspb.PlaceRequest{})
//		return err
//	})
//	report.Check(t)
//
// A failure names the hops that lost the deadline and prints the lab's table — the deadline each
// hop saw when its handler started, and how long each one kept working after its ctx was done
// (or, for a hop called with a fresh context, after the client's deadline):
//
//	hop C saw no deadline: its caller dropped it
//	hop B kept working 58ms after its ctx was done (/grpc.health.v1.Health/Check)
//	hop C kept working 58ms after the client's deadline: its ctx was never done (/grpc.health.v1.Health/Check)
//	lab: a call with a 150ms deadline got DeadlineExceeded
//	  hop  method                        deadline at start  after its ctx was done
//	  A    /grpc.health.v1.Health/Check  149ms              stopped
//	  B    /grpc.health.v1.Health/Check  127ms              kept working 58ms
//	  C    /grpc.health.v1.Health/Check  none               kept working 58ms (never done)
//
// Handlers are observed by server interceptors the chain adds to each hop's server, unary and
// streaming alike; the hops talk to each other through connections the chain dials, over
// bufconn, so the test needs no ports and measures your handlers, not a network.
package lab

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
)

// A Hop is one service of the chain, wired as in production.
type Hop struct {
	// Name names the hop in reports: "A", "orders".
	Name string
	// Register registers the hop's services on s. next is a connection to the next hop of the
	// chain, on which the hop builds its clients of its downstream; it is nil for the last hop.
	Register func(s *grpc.Server, next grpc.ClientConnInterface)
}

// An Option changes how a chain runs.
type Option func(*options)

type options struct {
	slack      time.Duration
	settle     time.Duration
	serverOpts []grpc.ServerOption
	dialOpts   []grpc.DialOption
}

// WithSlack sets how long after its ctx was done a handler may still return and count as having
// stopped (20ms by default): a handler that selects on ctx.Done() returns a little after, as
// the scheduler allows.
func WithSlack(d time.Duration) Option { return func(o *options) { o.slack = d } }

// WithSettle sets how long Call waits, after the client got its answer, for the hops' handlers to
// return (5s by default): a hop that lost the deadline keeps running after its caller gave up,
// and the report says for how long.
func WithSettle(d time.Duration) Option { return func(o *options) { o.settle = d } }

// WithServerOptions adds options to every hop's server: your own interceptors, as in production.
// The chain's observing interceptors run first.
func WithServerOptions(opts ...grpc.ServerOption) Option {
	return func(o *options) { o.serverOpts = append(o.serverOpts, opts...) }
}

// WithDialOptions adds options to every connection the chain dials: the one to the first hop
// and those between hops (your client interceptors, as in production).
func WithDialOptions(opts ...grpc.DialOption) Option {
	return func(o *options) { o.dialOpts = append(o.dialOpts, opts...) }
}

// A Chain is a running chain of hops.
type Chain struct {
	opts  options
	names []string
	first *grpc.ClientConn
	stops []func() // the last hop's first

	mu      sync.Mutex
	visits  []*visit
	running int           // handlers that have not returned
	idle    chan struct{} // closed when running drops to 0
}

// Start starts the hops, each on its own in-process server, each connected to the next, and
// stops them when the test ends.
func Start(t testing.TB, hops []Hop, opts ...Option) *Chain {
	t.Helper()
	c, err := New(hops, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// New starts a chain as Start does, outside a test; Close stops it.
func New(hops []Hop, opts ...Option) (*Chain, error) {
	if len(hops) == 0 {
		return nil, errors.New("lab: a chain needs at least one hop")
	}
	c := &Chain{opts: options{slack: 20 * time.Millisecond, settle: 5 * time.Second}}
	for _, o := range opts {
		o(&c.opts)
	}
	var next *grpc.ClientConn
	for i := len(hops) - 1; i >= 0; i-- {
		h := hops[i]
		c.names = append([]string{h.Name}, c.names...)
		lis := bufconn.Listen(1 << 20)
		srv := grpc.NewServer(append([]grpc.ServerOption{
			grpc.ChainUnaryInterceptor(c.observeUnary(h.Name)),
			grpc.ChainStreamInterceptor(c.observeStream(h.Name)),
		}, c.opts.serverOpts...)...)
		var downstream grpc.ClientConnInterface
		if next != nil {
			downstream = next
		}
		h.Register(srv, downstream)
		served := make(chan struct{})
		go func() {
			defer close(served)
			_ = srv.Serve(lis)
		}()
		stop := func() {
			srv.Stop()
			<-served
		}
		conn, err := grpc.NewClient("passthrough:///"+h.Name, append([]grpc.DialOption{
			grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
			grpc.WithTransportCredentials(insecure.NewCredentials()),
		}, c.opts.dialOpts...)...)
		if err != nil {
			stop()
			c.Close()
			return nil, fmt.Errorf("lab: dialing hop %s: %w", h.Name, err)
		}
		// Stopped first to last: a hop's server stops before the connection it calls through.
		c.stops = append(c.stops, func() {
			_ = conn.Close()
			stop()
		})
		next = conn
	}
	c.first = next
	return c, nil
}

// Close waits for the hops' handlers to return (up to the settle time) and stops the chain.
func (c *Chain) Close() {
	c.waitIdle(c.opts.settle)
	for i := len(c.stops) - 1; i >= 0; i-- {
		c.stops[i]()
	}
	c.stops = nil
}

// Conn returns the connection to the first hop.
func (c *Chain) Conn() *grpc.ClientConn { return c.first }

// Call calls the first hop through call with a ctx whose deadline is budget from now, waits for
// every hop's handlers to return (up to the settle time), and reports what each hop saw. call
// makes the request through your real client on cc.
func (c *Chain) Call(budget time.Duration, call func(ctx context.Context, cc *grpc.ClientConn) error) *Report {
	c.mu.Lock()
	c.visits = nil
	c.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	clientDeadline, _ := ctx.Deadline()
	err := call(ctx, c.first)
	cancel()
	settled := c.waitIdle(c.opts.settle)
	c.mu.Lock()
	defer c.mu.Unlock()
	r := &Report{Budget: budget, Err: err, Code: status.Code(err), Settled: settled, slack: c.opts.slack, settle: c.opts.settle}
	order := make(map[string]int, len(c.names))
	for i, n := range c.names {
		order[n] = i
	}
	for _, v := range c.visits {
		r.Visits = append(r.Visits, v.snapshot(clientDeadline, c.opts.slack))
	}
	sort.SliceStable(r.Visits, func(i, j int) bool {
		if oi, oj := order[r.Visits[i].Hop], order[r.Visits[j].Hop]; oi != oj {
			return oi < oj
		}
		return r.Visits[i].start.Before(r.Visits[j].start)
	})
	r.hops = append([]string(nil), c.names...)
	return r
}

// waitIdle waits up to d for every handler of the chain to return; it reports whether they did.
func (c *Chain) waitIdle(d time.Duration) bool {
	c.mu.Lock()
	if c.running == 0 {
		c.mu.Unlock()
		return true
	}
	idle := c.idle
	c.mu.Unlock()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-idle:
		return true
	case <-timer.C:
		return false
	}
}

// visit is one handler run, as the observing interceptor records it.
type visit struct {
	hop, method string
	start       time.Time
	deadline    time.Time
	hasDeadline bool
	stopAfter   func() bool

	mu     sync.Mutex
	doneAt time.Time // when the handler's ctx was done, if it was before it returned
	end    time.Time // when the handler returned; zero while it runs
}

// begin records the start of a handler of hop with ctx, and returns the function to call when
// it returns.
func (c *Chain) begin(ctx context.Context, hop, method string) func() {
	v := &visit{hop: hop, method: method, start: time.Now()}
	v.deadline, v.hasDeadline = ctx.Deadline()
	v.stopAfter = context.AfterFunc(ctx, func() {
		v.mu.Lock()
		if v.end.IsZero() {
			v.doneAt = time.Now()
		}
		v.mu.Unlock()
	})
	c.mu.Lock()
	c.visits = append(c.visits, v)
	if c.running == 0 {
		c.idle = make(chan struct{})
	}
	c.running++
	c.mu.Unlock()
	return func() {
		v.mu.Lock()
		v.end = time.Now()
		v.mu.Unlock()
		v.stopAfter()
		c.mu.Lock()
		if c.running--; c.running == 0 {
			close(c.idle)
		}
		c.mu.Unlock()
	}
}

func (c *Chain) observeUnary(hop string) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		defer c.begin(ctx, hop, info.FullMethod)()
		return handler(ctx, req)
	}
}

func (c *Chain) observeStream(hop string) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		defer c.begin(ss.Context(), hop, info.FullMethod)()
		return handler(srv, ss)
	}
}

// snapshot returns what the visit showed, for a call whose client deadline was clientDeadline.
func (v *visit) snapshot(clientDeadline time.Time, slack time.Duration) Visit {
	v.mu.Lock()
	defer v.mu.Unlock()
	out := Visit{Hop: v.hop, Method: v.method, HasDeadline: v.hasDeadline, Finished: !v.end.IsZero(), start: v.start}
	if v.hasDeadline {
		out.Deadline = v.deadline.Sub(v.start)
	}
	end := v.end
	if end.IsZero() {
		end = time.Now()
	}
	// A hop called with a fresh context is never done: it is measured from the client's
	// deadline, the moment its work stopped being of use to anyone.
	done := v.doneAt
	if done.IsZero() && end.After(clientDeadline) {
		done = clientDeadline
		out.CtxNeverDone = true
	}
	if !done.IsZero() {
		if past := end.Sub(done); past > slack || !out.Finished {
			out.WorkedAfterDone = past
		}
	}
	return out
}

// A Report is what one call through the chain showed.
type Report struct {
	Budget  time.Duration // the client's deadline
	Err     error         // what the client's call returned
	Code    codes.Code    // its status code
	Visits  []Visit       // every handler run, in chain order
	Settled bool          // every handler had returned by the settle time

	hops   []string
	slack  time.Duration
	settle time.Duration
}

// A Visit is one handler run of one hop.
type Visit struct {
	Hop    string
	Method string
	// HasDeadline reports whether the handler's ctx had a deadline, and Deadline how far away it
	// was when the handler started.
	HasDeadline bool
	Deadline    time.Duration
	// WorkedAfterDone is how long the handler kept running after its ctx was done (beyond the
	// slack), or after the client's deadline if its ctx never was (CtxNeverDone); 0 if it
	// stopped in time.
	WorkedAfterDone time.Duration
	CtxNeverDone    bool
	// Finished reports whether the handler returned before the settle time.
	Finished bool

	start time.Time
}

// Check fails t unless the report shows the article's three properties: the client saw
// DeadlineExceeded, every hop saw a deadline smaller than the hop before it, and no hop kept
// working after its ctx was done. Use it with a budget too small for the chain.
func (r *Report) Check(t testing.TB) {
	t.Helper()
	var problems []string
	if r.Code != codes.DeadlineExceeded {
		problems = append(problems, fmt.Sprintf("the client got %v, want DeadlineExceeded", r.Code))
	}
	r.fail(t, append(problems, r.Problems()...))
}

// CheckPropagated fails t unless every hop saw a deadline smaller than the hop before it and no
// hop kept working after its ctx was done, whatever the client got: use it with a budget big
// enough for the chain.
func (r *Report) CheckPropagated(t testing.TB) {
	t.Helper()
	r.fail(t, r.Problems())
}

func (r *Report) fail(t testing.TB, problems []string) {
	t.Helper()
	if len(problems) > 0 {
		t.Errorf("%s\n%s", strings.Join(problems, "\n"), r)
	}
}

// Problems lists, one sentence each, where the deadline was lost: a hop that saw no deadline, or
// one no smaller than its caller's, and a hop that kept working after its ctx was done (or was
// still running at the settle time).
func (r *Report) Problems() []string {
	var out []string
	var prev *Visit
	for _, name := range r.hops {
		first := r.first(name)
		if first == nil {
			continue // never reached: the budget ran out before
		}
		switch {
		case !first.HasDeadline:
			out = append(out, fmt.Sprintf("hop %s saw no deadline: its caller dropped it", name))
		case prev != nil && prev.HasDeadline && first.Deadline >= prev.Deadline:
			out = append(out, fmt.Sprintf("hop %s saw a deadline of %v, not less than %s's %v", name, round(first.Deadline), prev.Hop, round(prev.Deadline)))
		}
		prev = first
	}
	for _, v := range r.Visits {
		switch {
		case !v.Finished:
			out = append(out, fmt.Sprintf("hop %s was still running %v after the call (%s)", v.Hop, r.settle, v.Method))
		case v.WorkedAfterDone > 0 && v.CtxNeverDone:
			out = append(out, fmt.Sprintf("hop %s kept working %v after the client's deadline: its ctx was never done (%s)", v.Hop, round(v.WorkedAfterDone), v.Method))
		case v.WorkedAfterDone > 0:
			out = append(out, fmt.Sprintf("hop %s kept working %v after its ctx was done (%s)", v.Hop, round(v.WorkedAfterDone), v.Method))
		}
	}
	return out
}

// first returns the first visit of hop, or nil.
func (r *Report) first(hop string) *Visit {
	for i := range r.Visits {
		if r.Visits[i].Hop == hop {
			return &r.Visits[i]
		}
	}
	return nil
}

// String renders the report as the lab's table.
func (r *Report) String() string {
	var b strings.Builder
	got := r.Code.String()
	if r.Err == nil {
		got = "OK"
	}
	fmt.Fprintf(&b, "lab: a call with a %v deadline got %s\n", round(r.Budget), got)
	width := len("method")
	for _, v := range r.Visits {
		width = max(width, len(v.Method))
	}
	hopWidth := len("hop")
	for _, h := range r.hops {
		hopWidth = max(hopWidth, len(h))
	}
	fmt.Fprintf(&b, "  %-*s  %-*s  %-17s  %s\n", hopWidth, "hop", width, "method", "deadline at start", "after its ctx was done")
	for _, h := range r.hops {
		if r.first(h) == nil {
			fmt.Fprintf(&b, "  %-*s  %-*s  %-17s  %s\n", hopWidth, h, width, "-", "-", "not reached")
		}
		for _, v := range r.Visits {
			if v.Hop != h {
				continue
			}
			deadline := "none"
			if v.HasDeadline {
				deadline = round(v.Deadline).String()
			}
			after := "stopped"
			switch {
			case !v.Finished:
				after = "still running"
			case v.WorkedAfterDone > 0 && v.CtxNeverDone:
				after = "kept working " + round(v.WorkedAfterDone).String() + " (never done)"
			case v.WorkedAfterDone > 0:
				after = "kept working " + round(v.WorkedAfterDone).String()
			}
			fmt.Fprintf(&b, "  %-*s  %-*s  %-17s  %s\n", hopWidth, h, width, v.Method, deadline, after)
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func round(d time.Duration) time.Duration { return d.Round(time.Millisecond) }
