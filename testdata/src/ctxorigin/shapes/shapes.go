// Package shapes pins down the origin the resolver computes for each SSA shape: every sink
// below is annotated with the origin set the test analyzer prints.
package shapes

import (
	"context"
	"iter"
	"os"
	"os/signal"
	"time"

	"ctxorigin/lib"
	"example.com/gen/catalogpb"
	"go.opentelemetry.io/otel/trace"
	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

func use(ctx context.Context) {}

type Repo interface{ Load(ctx context.Context) }

// Tenants derives a ctx through an interface: the body is not known.
type Tenants interface {
	With(ctx context.Context, id string) context.Context
}

var global context.Context

type Server struct {
	catalogpb.UnimplementedCatalogServer
	base    context.Context
	repo    Repo
	flag    bool
	ch      chan context.Context
	tracer  trace.Tracer
	tenants Tenants
}

func (s *Server) load(ctx context.Context) {}

func withBudget(ctx context.Context) context.Context {
	c, _ := context.WithTimeout(ctx, time.Second)
	return c
}

func fresh() context.Context { return context.Background() }

func pick[T any](ctx context.Context, _ T) context.Context { return ctx }

func each(ctx context.Context) iter.Seq[int] { return func(yield func(int) bool) {} }

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	use(ctx) // want `\[request\]`
	tctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	use(tctx)                                  // want `\[request\+deadline\]`
	use(context.WithValue(tctx, "k", 1))       // want `\[request\+deadline\]`
	use(metadata.NewOutgoingContext(ctx, nil)) // want `\[request\]`
	use(context.WithoutCancel(ctx))            // want `\[detached\]`
	d, dcancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer dcancel()
	use(d) // want `\[detached\+deadline\]`
	_, gctx := errgroup.WithContext(ctx)
	use(gctx) // want `\[request\]`
	sctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	use(sctx) // want `\[root\]`
	c := ctx
	if s.flag {
		c = context.TODO()
	}
	use(c)                        // want `\[request root\]`
	use(s.base)                   // want `\[field base\]`
	use(global)                   // want `\[global global\]`
	use(<-s.ch)                   // want `\[unknown\]`
	use(withBudget(ctx))          // want `\[request\+deadline\]`
	use(fresh())                  // want `\[root\]`
	use(pick(ctx, 1))             // want `\[request\]`
	use(lib.WithTenant(ctx, "t")) // want `\[request\]`
	s.repo.Load(ctx)              // want `\[request\]`
	s.load(ctx)                   // want `\[request\]`
	f := s.load
	f(ctx)         // want `\[request\]`
	defer use(ctx) // want `\[request\]`
	go use(ctx)    // want `\[request\]`
	func() {
		use(ctx) // want `\[request\]`
	}()
	v := ctx
	reset := func() { v = context.Background() }
	reset()
	func() {
		use(v) // want `\[request root\]`
	}()
	actx := context.WithoutCancel(ctx)
	actx, acancel := context.WithTimeout(actx, time.Second)
	go func() {
		defer acancel()
		use(actx) // want `\[detached\+deadline\]`
	}()
	w := context.WithoutCancel(ctx)
	if s.flag {
		var wcancel context.CancelFunc
		w, wcancel = context.WithTimeout(w, time.Second)
		defer wcancel()
	}
	func() {
		use(w) // want `\[(detached\+deadline detached|detached detached\+deadline)\]`
	}()
	late := ctx
	defer func() {
		use(late) // want `\[(request root|root request)\]`
	}()
	late = context.Background()
	type holder struct {
		ctx context.Context
		n   int
	}
	hv := holder{ctx: context.TODO()}
	use(hv.ctx) // want `\[root\]`
	hr := holder{ctx: ctx, n: 1}
	func() {
		use(hr.ctx) // want `\[request\]`
	}()
	for range each(ctx) { // want `\[request\]`
		use(ctx) // want `\[request\]`
	}
	{
		ctx := context.Background()
		use(ctx) // want `\[root\]`
	}
	// An OpenTelemetry span attaches no deadline; an interface method taking and returning a
	// ctx is a deriver whose effect is not known.
	spanCtx, span := s.tracer.Start(tctx, "GetItem")
	defer span.End()
	use(spanCtx)                                           // want `\[request\+deadline\]`
	use(trace.ContextWithSpan(context.Background(), span)) // want `\[root\]`
	use(s.tenants.With(context.TODO(), "t"))               // want `\[root\+opaque\]`
	fctx, fcancel := lib.Fresh()
	defer fcancel()
	use(fctx)                      // want `\[root\+deadline\]`
	use(lib.Detached(ctx, s.flag)) // want `\[(request detached|detached request)\]`
	use(lib.OrDefault(ctx))        // want `\[request\]`
	return nil, nil
}

func (s *Server) ListItems(req *catalogpb.ListItemsRequest, stream grpc.ServerStreamingServer[catalogpb.Item]) error {
	use(stream.Context()) // want `\[request\]`
	sctx := stream.Context()
	go func() {
		use(sctx) // want `\[request\]`
	}()
	// A root cancelled when the request's ctx is done lives as long as the request: by
	// context.AfterFunc, or by a goroutine that waits for Done and then cancels.
	actx, acancel := context.WithCancel(context.Background())
	defer context.AfterFunc(sctx, acancel)() // want `\[request\]`
	use(actx)                                // want `\[request\]`
	gctx, gcancel := context.WithCancel(context.Background())
	go func() {
		<-sctx.Done()
		gcancel()
	}()
	use(gctx) // want `\[request\]`
	// One that may return without cancelling ties nothing.
	nctx, ncancel := context.WithCancel(context.Background())
	stop := make(chan struct{})
	go func() {
		select {
		case <-sctx.Done():
			return
		case <-stop:
		}
		ncancel()
	}()
	use(nctx) // want `\[root\]`
	close(stop)
	return nil
}

// helper is not a request scope: its ctx is a parameter.
func helper(ctx context.Context) {
	use(ctx) // want `\[param ctx\]`
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	use(cctx) // want `\[param ctx\]`
}

type worker struct {
	ctx context.Context
}

// newWorker returns its named result by name, and a closure captures it: go/ssa stores the
// returned value back into the result's variable (*w = *w), so the variable's stores form a
// cycle, which the search for the field's base must not follow forever. Its base cannot be
// told: the struct comes from the composite literal and from itself.
func newWorker() (w *worker, err error) {
	w = &worker{}
	defer func() { _ = w }()
	use(w.ctx) // want `\[field ctx\]`
	return w, nil
}

type link struct {
	ctx  context.Context
	next *link
}

// A list walked through a variable a closure captures: n = n.next reads the variable back.
func walk(head *link) {
	n := head
	defer func() { _ = n }()
	for n != nil {
		use(n.ctx) // want `\[field ctx\]`
		n = n.next
	}
}
