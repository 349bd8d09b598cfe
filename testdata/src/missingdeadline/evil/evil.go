// Package evil holds the shapes most likely to fool missingdeadline: closures, goroutines,
// method values, generics, helpers that make the ctx, values it cannot see through, and
// look-alikes of generated clients.
package evil

import (
	"context"
	"time"

	"example.com/gen/catalogpb"
	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc"
)

var req = &catalogpb.GetItemRequest{Id: "x"}

// poll captures its ctx in a closure that makes the call.
func poll(ctx context.Context, c catalogpb.CatalogClient) {
	get := func() { _, _ = c.GetItem(ctx, req) }
	get()
}

func usePoll(c catalogpb.CatalogClient) {
	poll(context.Background(), c) // want `evil\.poll calls RPC CatalogClient\.GetItem with no deadline \(ctx from context\.Background\(\)\); add one with context\.WithTimeout`
}

// each is a literal taking the ctx as a parameter.
func each(c catalogpb.CatalogClient, ids []string) {
	fetch := func(ctx context.Context, id string) { _, _ = c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id}) }
	for _, id := range ids {
		fetch(context.Background(), id) // want `a function literal in evil\.each calls RPC CatalogClient\.GetItem with no deadline \(ctx from context\.Background\(\)\); add one with context\.WithTimeout`
	}
}

func fireAndForget(c catalogpb.CatalogClient) {
	go c.GetItem(context.Background(), req) // want `RPC CatalogClient.GetItem has no deadline \(ctx from context.Background\(\)`
	defer c.GetItem(context.TODO(), req)    // want `RPC CatalogClient.GetItem has no deadline \(ctx from context.TODO\(\)`
}

func methodValue(c catalogpb.CatalogClient) {
	get := c.GetItem
	_, _ = get(context.Background(), req) // want `RPC CatalogClient.GetItem`
}

// callGeneric reaches the RPC through a type parameter.
func callGeneric[C catalogpb.CatalogClient](ctx context.Context, c C) {
	_, _ = c.GetItem(ctx, req)
}

func useGeneric(c catalogpb.CatalogClient) {
	callGeneric(context.Background(), c) // want `evil\.callGeneric calls RPC CatalogClient\.GetItem with no deadline \(ctx from context\.Background\(\)\); add one with context\.WithTimeout`
}

type key struct{}

// newCtx makes the ctx; its callers' calls have no deadline.
func newCtx() context.Context { return context.WithValue(context.Background(), key{}, "v") }

// boundedCtx makes a ctx with a deadline.
func boundedCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), time.Second)
}

func helpers(c catalogpb.CatalogClient) {
	_, _ = c.GetItem(newCtx(), req) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\)\); add one with context\.WithTimeout`
	ctx, cancel := boundedCtx()
	defer cancel()
	_, _ = c.GetItem(ctx, req)
}

// layered keeps the deadline under later derivations.
func layered(c catalogpb.CatalogClient) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	ctx = context.WithValue(ctx, key{}, "v")
	_, _ = c.GetItem(ctx, req)
}

// detached drops its caller's deadline outside any request scope: the detach rule reports the
// unbounded WithoutCancel, at the WithoutCancel call.
func detached(ctx context.Context, c catalogpb.CatalogClient) {
	_, _ = c.GetItem(context.WithoutCancel(ctx), req)
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	_, _ = c.GetItem(dctx, req)
}

// fanout shares an errgroup ctx with no deadline.
func fanout(c catalogpb.CatalogClient, ids []string) error {
	g, gctx := errgroup.WithContext(context.Background())
	for _, id := range ids {
		g.Go(func() error {
			_, err := c.GetItem(gctx, &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient.GetItem has no deadline \(ctx from context.Background\(\)`
			return err
		})
	}
	return g.Wait()
}

// retry recurses with the same ctx.
func retry(ctx context.Context, c catalogpb.CatalogClient, n int) error {
	if _, err := c.GetItem(ctx, req); err != nil && n > 0 {
		return retry(ctx, c, n-1)
	}
	return nil
}

func useRetry(c catalogpb.CatalogClient) {
	_ = retry(context.Background(), c, 3) // want `evil\.retry calls RPC CatalogClient\.GetItem with no deadline \(ctx from context\.Background\(\)\); add one with context\.WithTimeout`
}

type call struct {
	ctx context.Context
	id  string
}

// viaStruct carries the ctx in a struct built here.
func viaStruct(c catalogpb.CatalogClient) {
	r := &call{ctx: context.Background(), id: "s"}
	_, _ = c.GetItem(r.ctx, &catalogpb.GetItemRequest{Id: r.id}) // want `RPC CatalogClient.GetItem`
}

// appCtx and worker.ctx come from elsewhere: whether they have a deadline is not visible.
var appCtx = context.Background()

type worker struct {
	ctx context.Context
	c   catalogpb.CatalogClient
}

func (w *worker) run() {
	_, _ = w.c.GetItem(appCtx, req)
	_, _ = w.c.GetItem(w.ctx, req)
}

// lookAlike has methods shaped almost like a generated client's.
type lookAlike struct{}

func (lookAlike) Count(ctx context.Context, opts ...grpc.CallOption) (int, error) { return 0, nil }
func (lookAlike) Batch(ctx context.Context, opts []grpc.CallOption) (*catalogpb.Item, error) {
	return nil, nil
}
func (lookAlike) Names(ctx context.Context, opts ...grpc.CallOption) (*[]string, error) {
	return nil, nil
}
func (lookAlike) Tail(ctx context.Context, in *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	return nil, nil
}

// standalone is not a method.
func standalone(ctx context.Context, opts ...grpc.CallOption) (*catalogpb.Item, error) {
	return nil, nil
}

func lookAlikes() {
	var l lookAlike
	ctx := context.Background()
	_, _ = l.Count(ctx)
	_, _ = l.Batch(ctx, nil)
	_, _ = l.Names(ctx)
	_, _ = l.Tail(ctx, req)
	_, _ = standalone(ctx)
}

// fetcher is an interface of the program, not a client.
type fetcher interface {
	Fetch(ctx context.Context, id string) error
}

func useFetcher(f fetcher) { _ = f.Fetch(context.Background(), "f") }

// unreasoned suppresses without saying why: the directive is reported and suppresses nothing.
func unreasoned(c catalogpb.CatalogClient) {
	//deadlinelint:ignore missingdeadline // want `//deadlinelint:ignore missingdeadline needs a reason`
	_, _ = c.GetItem(context.Background(), req) // want `RPC CatalogClient.GetItem`
}

// withDefault gives its callers' calls a default deadline inline: no fact.
func withDefault(ctx context.Context, c catalogpb.CatalogClient) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
	}
	_, err := c.GetItem(ctx, req)
	return err
}

// ensureDeadline is the same default as a helper.
func ensureDeadline(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, 5*time.Second)
}

func viaEnsure(c catalogpb.CatalogClient) {
	ctx, cancel := ensureDeadline(context.Background())
	defer cancel()
	_, _ = c.GetItem(ctx, req)
}

// configured bounds the call only when a timeout is configured: the user's decision, not
// reported.
func configured(c catalogpb.CatalogClient, timeout time.Duration) {
	ctx := context.Background()
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	_, _ = c.GetItem(ctx, req)
}

func useDefaults(c catalogpb.CatalogClient) {
	_ = withDefault(context.Background(), c)
}

// timeoutClient wraps a client and bounds every call: its methods have the generated shape,
// but their bodies are visible and judged.
type timeoutClient struct {
	inner catalogpb.CatalogClient
	d     time.Duration
}

func (t *timeoutClient) GetItem(ctx context.Context, in *catalogpb.GetItemRequest, opts ...grpc.CallOption) (*catalogpb.Item, error) { // want GetItem:"boundsCalls"
	ctx, cancel := context.WithTimeout(ctx, t.d)
	defer cancel()
	return t.inner.GetItem(ctx, in, opts...)
}

// tracingClient passes the ctx through.
type tracingClient struct{ inner catalogpb.CatalogClient }

func (t *tracingClient) GetItem(ctx context.Context, in *catalogpb.GetItemRequest, opts ...grpc.CallOption) (*catalogpb.Item, error) { // want GetItem:`needsDeadline\(1: CatalogClient.GetItem\)`
	return t.inner.GetItem(ctx, in, opts...)
}

func wrappers(tc *timeoutClient, tr *tracingClient) {
	_, _ = tc.GetItem(context.Background(), req)
	_, _ = tr.GetItem(context.Background(), req) // want `tracingClient\.GetItem calls RPC CatalogClient\.GetItem with no deadline \(ctx from context\.Background\(\)\); add one with context\.WithTimeout`
}

// poller is called through a method value.
type poller struct{ c catalogpb.CatalogClient }

func (p *poller) Poll(ctx context.Context) { _, _ = p.c.GetItem(ctx, req) } // want Poll:`needsDeadline\(1: CatalogClient.GetItem\)`

func methodValueHop(p *poller) {
	poll := p.Poll
	poll(context.Background()) // want `poller\.Poll calls RPC CatalogClient\.GetItem with no deadline \(ctx from context\.Background\(\)\); add one with context\.WithTimeout`
}

// methodExpression calls through the interface's method expression: the thunk takes the
// receiver as its first argument, so the ctx is the second.
func methodExpression(c catalogpb.CatalogClient) {
	_, _ = catalogpb.CatalogClient.GetItem(c, context.Background(), req) // want `RPC CatalogClient.GetItem has no deadline \(ctx from context.Background\(\)`
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, _ = catalogpb.CatalogClient.GetItem(c, ctx, req)
}
