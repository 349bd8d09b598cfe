// Package behalf holds a warehouse service whose handlers call helpers that use root contexts
// for work not done on the request's behalf — a goroutine with a lifetime of its own, deferred
// cleanup, one-time initialisation deeper in the chain, a budget the helper sets on purpose,
// an interface whose implementations do not all drop, the service's own client adapter — next
// to the helpers that really do lose the caller's deadline.
package behalf

import (
	"context"
	"sync"
	"time"

	otellog "go.opentelemetry.io/otel/log"
	"go.opentelemetry.io/otel/metric"
	xcontext "golang.org/x/net/context"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc"
)

type db interface {
	Exec(ctx context.Context, q string) error
}

// Warehouse serves the catalog.
type Warehouse struct {
	catalogpb.UnimplementedCatalogServer
	db    db
	once  sync.Once
	stock Stock
	peer  Stock
	open  func(context.Context) error // set by the caller of New, out of sight

	opened bool
	conn   *int

	hits    metric.Int64Counter
	latency metric.Float64Histogram
	logger  otellog.Logger
}

// Stock is what a handler asks about availability.
type Stock interface {
	Reserve(ctx context.Context, id string) error
}

// prefetch starts a worker that outlives the call: its lifetime is its own.
func (w *Warehouse) prefetch(ctx context.Context, id string) {
	go func() {
		_ = w.db.Exec(context.Background(), "prefetch "+id)
	}()
}

// spawn starts a method on a goroutine with a root: the same.
func (w *Warehouse) spawn(ctx context.Context) {
	go w.sweep(context.Background())
}

func (w *Warehouse) sweep(ctx context.Context) { _ = w.db.Exec(ctx, "sweep") }

// release gives back what the request held; it runs deferred.
func (w *Warehouse) release(id string) { // want release:"drops ctx"
	_ = w.db.Exec(context.Background(), "release "+id)
}

// closeAll cleans up in a deferred call of its own.
func (w *Warehouse) closeAll(ctx context.Context) error {
	defer w.release("all")
	return w.db.Exec(ctx, "close")
}

// warm initialises shared state once, one call below the helper the handler calls.
func (w *Warehouse) warm() {
	w.once.Do(func() { _ = w.db.Exec(context.Background(), "warm") })
}

func (w *Warehouse) ensure(ctx context.Context) error {
	w.warm()
	return w.db.Exec(ctx, "ensure")
}

// budget replaces the caller's remaining deadline with a fresh one, and drops its
// cancellation: outside cleanup, that is a lost deadline.
func (w *Warehouse) budget(id string) error { // want budget:"drops ctx"
	bctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	return w.db.Exec(bctx, "budget "+id)
}

// viaFactory hands a root to a function value kept in a field, out of sight: silent.
func (w *Warehouse) viaFactory(ctx context.Context) error {
	return w.open(context.Background())
}

// viaCallback hands a root to the callback it is given: in sight of its caller, a drop.
func (w *Warehouse) viaCallback(ctx context.Context, fn func(context.Context) error) error { // want viaCallback:"drops ctx"
	return fn(context.Background())
}

// openPool opens the shared pool once and keeps it: later requests reuse it.
func (w *Warehouse) openPool(ctx context.Context) error {
	if w.opened {
		return nil
	}
	w.opened = true
	return w.db.Exec(context.Background(), "CREATE POOL")
}

// lazyConn dials on first use and keeps the connection.
func (w *Warehouse) lazyConn(ctx context.Context) error {
	if w.conn == nil {
		w.conn = new(int)
		return w.db.Exec(context.Background(), "CONNECT")
	}
	return nil
}

// everyTime checks a field it never sets: not a first use, a drop.
func (w *Warehouse) everyTime(ctx context.Context) error { // want everyTime:"drops ctx"
	if w.opened {
		return w.db.Exec(context.Background(), "PING")
	}
	return nil
}

// measure records a metric and a log with a root: a ctx that only carries values is no work.
func (w *Warehouse) measure(ctx context.Context, n int64) {
	w.hits.Add(context.Background(), n)
	w.latency.Record(context.Background(), 1.5)
	w.logger.Emit(context.Background(), otellog.Record{})
}

// drop really runs the caller's work with a root, synchronously.
func (w *Warehouse) drop(ctx context.Context, id string) error { // want drop:"drops ctx"
	return w.db.Exec(context.Background(), "drop "+id)
}

// localStock passes the ctx on; remoteStock drops it; memStock ignores it. The interface call
// may keep its deadline.
type localStock struct{ db db }

func (s localStock) Reserve(ctx context.Context, id string) error { return s.db.Exec(ctx, id) }

type memStock struct{}

func (memStock) Reserve(ctx context.Context, id string) error { return nil }

type remoteStock struct{ db db }

func (s remoteStock) Reserve(ctx context.Context, id string) error { // want Reserve:"drops ctx"
	return s.db.Exec(context.TODO(), id)
}

// query kills its statement when the caller gives up: that work starts because the caller's
// ctx is done, with a fresh ctx of its own.
func (w *Warehouse) query(ctx context.Context, q string) error {
	stop := context.AfterFunc(ctx, func() {
		kctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = w.db.Exec(kctx, "KILL QUERY")
	})
	defer stop()
	done := make(chan error, 1)
	go func() { done <- w.db.Exec(ctx, q) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		_ = w.db.Exec(context.Background(), "ROLLBACK")
		return ctx.Err()
	}
}

// await blocks until the caller gives up, then cleans up with a root.
func (w *Warehouse) await(ctx context.Context) {
	<-ctx.Done()
	_ = w.db.Exec(context.Background(), "cleanup")
}

func (w *Warehouse) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	id := req.GetId()
	_ = w.query(ctx, "SELECT 1")
	w.await(ctx)
	w.prefetch(ctx, id)
	w.spawn(ctx)
	_ = w.closeAll(ctx)
	defer w.release(id) // deferred cleanup: not reported
	_ = w.ensure(ctx)
	_ = w.viaFactory(ctx)
	_ = w.openPool(ctx)
	w.measure(ctx, 1)
	_ = w.lazyConn(ctx)
	_ = w.everyTime(ctx)         // want `behalf\.Warehouse\.everyTime, called in handler Warehouse\.GetItem, works with context\.Background\(\); pass ctx down`
	_ = w.budget(id)             // want `behalf\.Warehouse\.budget, called in handler Warehouse\.GetItem, works with context\.Background\(\); pass ctx down`
	_ = w.stock.Reserve(ctx, id) // one implementation passes ctx on: silent
	defer func() {
		cctx, cancel := context.WithTimeout(context.Background(), time.Second) // bounded cleanup: the idiom
		defer cancel()
		_ = w.db.Exec(cctx, "unlock "+id)
	}()
	defer func() {
		_ = w.db.Exec(context.Background(), "unbounded unlock "+id) // want `context.Background\(\) in handler Warehouse.GetItem drops the caller's deadline`
	}()
	if err := w.drop(ctx, id); err != nil { // want `behalf\.Warehouse\.drop, called in handler Warehouse\.GetItem, works with context\.Background\(\); pass ctx down`
		return nil, err
	}
	return &catalogpb.Item{Id: id}, nil
}

// Both implementations of Ledger drop, and the third ignores its ctx: the interface call
// drops.
type Ledger interface {
	Post(ctx context.Context, id string) error
}

type nopLedger struct{}

func (nopLedger) Post(ctx context.Context, id string) error { return nil }

type pgLedger struct{ db db }

func (l pgLedger) Post(ctx context.Context, id string) error { // want Post:"drops ctx"
	return l.db.Exec(context.Background(), id)
}

type memLedger struct{ db db }

func (l *memLedger) Post(ctx context.Context, id string) error { // want Post:"drops ctx"
	return l.db.Exec(context.TODO(), id)
}

// stockClient is the service's own client side: it forwards to a remote server through a
// gRPC client, and is no part of what this server does for its caller.
type stockClient struct {
	cc  grpc.ClientConnInterface
	alt Stock
}

func (c *stockClient) Reserve(ctx context.Context, id string) error { // want Reserve:"drops ctx"
	return c.alt.Reserve(context.Background(), id)
}

// Runner's only implementation in sight is the client adapter: silent.
type Runner interface {
	Run(ctx context.Context, id string) error
}

type runnerClient struct {
	cc  grpc.ClientConnInterface
	alt Stock
}

func (c *runnerClient) Run(ctx context.Context, id string) error { // want Run:"drops ctx"
	return c.alt.Reserve(context.Background(), id)
}

// Ledgers routes to a ledger and a remote stock.
type Ledgers struct {
	catalogpb.UnimplementedCatalogServer
	ledger Ledger
	remote Stock
	runner Runner
}

func (l *Ledgers) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if err := l.ledger.Post(ctx, req.GetId()); err != nil { // want `\(\*behalf\.memLedger\)\.Post, called in handler Ledgers\.GetItem, works with context\.TODO\(\) and context\.Background\(\); pass ctx down`
		return nil, err
	}
	_ = l.remote.Reserve(ctx, req.GetId())                   // remoteStock drops, localStock passes on, stockClient is a client: silent
	_ = l.runner.Run(ctx, req.GetId())                       // only the client adapter implements Runner: silent
	_ = l.remote.Reserve(xcontext.Background(), req.GetId()) // want `context.Background\(\) in handler Ledgers.GetItem drops the caller's deadline`
	return &catalogpb.Item{Id: req.GetId()}, nil
}

func register(s *grpc.Server, w *Warehouse, l *Ledgers) {
	catalogpb.RegisterCatalogServer(s, w)
	catalogpb.RegisterCatalogServer(s, l)
}
