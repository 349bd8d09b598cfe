// Package lifetime holds a feed service whose handlers create objects that live past the
// request — a subscription whose ctx is cancelled by its own Close — and an expression
// environment that only reads a value out of the ctx it is made with: neither loses the
// caller's deadline. Beside them, helpers that do lose it.
package lifetime

import (
	"context"

	"example.com/gen/catalogpb"
)

type db interface {
	Exec(ctx context.Context, q string) error
}

// Subscription pulls events until it is closed.
type Subscription struct {
	db     db
	cancel context.CancelFunc
}

// Subscribe starts a subscription: its ctx is its own lifetime, ended by Close.
func Subscribe(d db, topic string) *Subscription {
	ctx, cancel := context.WithCancel(context.Background())
	s := &Subscription{db: d, cancel: cancel}
	_ = s.db.Exec(ctx, "LISTEN "+topic)
	return s
}

// Close ends the subscription.
func (s *Subscription) Close() { s.cancel() }

// Watch is a subscription that keeps its cancel function as a plain func().
type Watch struct {
	db   db
	stop func()
}

// NewWatch starts a watch: its ctx is its own lifetime, ended by Stop.
func NewWatch(d db, key string) *Watch {
	ctx, cancel := context.WithCancel(context.Background())
	w := &Watch{db: d, stop: cancel}
	_ = w.db.Exec(ctx, "WATCH "+key)
	return w
}

// Stop ends the watch.
func (w *Watch) Stop() { w.stop() }

// poll looks like Subscribe, but its cancel function is only deferred: the work is the call's,
// on a root.
func poll(d db, topic string) { // want poll:"drops ctx"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_ = d.Exec(ctx, "POLL "+topic)
}

// A Job runs after the request that prepared it; its CancelFn ends it.
type Job struct {
	ctx      context.Context
	CancelFn func(error)
}

// Prepare makes a job whose ctx is its own lifetime, ended by a function the job keeps that
// calls the cancel function, and starts loading its input with it.
func Prepare(d db) *Job {
	ctx, cancel := context.WithCancelCause(context.Background())
	_ = d.Exec(ctx, "LOAD")
	return &Job{ctx: ctx, CancelFn: func(err error) { cancel(err) }}
}

// Run works with the job's ctx.
func (j *Job) Run(d db) { _ = d.Exec(j.ctx, "RUN") }

// once hands its cancel function to a literal it calls itself: the work is the call's.
func once(d db) { // want once:"drops ctx"
	ctx, cancel := context.WithCancel(context.Background())
	stop := func() { cancel() }
	defer stop()
	_ = d.Exec(ctx, "ONCE")
}

// Jobs holds prepared jobs until they run.
type Jobs struct {
	catalogpb.UnimplementedCatalogServer
	jobs map[string]*Job
}

// GetItem prepares a job in the handler itself: its ctx is the job's lifetime, not the request's.
func (s *Jobs) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	jobCtx, cancel := context.WithCancelCause(context.Background())
	s.jobs[req.GetId()] = &Job{ctx: jobCtx, CancelFn: func(err error) { cancel(err) }}
	return &catalogpb.Item{Id: req.GetId()}, nil
}

type userKey struct{}

// Env evaluates expressions for a user.
type Env struct{ user string }

// NewEnv reads the user out of ctx: a value, no work.
func NewEnv(ctx context.Context) *Env {
	u, _ := ctx.Value(userKey{}).(string)
	return &Env{user: u}
}

// EmptyEnv makes an environment for constant folding, with a root: nothing is lost.
func EmptyEnv() *Env { return NewEnv(context.Background()) }

// Server serves the catalog.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	db db
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	sub := Subscribe(s.db, req.GetId()) // an object's lifetime: silent
	defer sub.Close()
	w := NewWatch(s.db, req.GetId()) // so is this one: silent
	defer w.Stop()
	_ = EmptyEnv()          // a value read: silent
	poll(s.db, req.GetId()) // want `lifetime\.poll, called in handler Server\.GetItem, works with context\.Background\(\); pass ctx down`
	job := Prepare(s.db)    // a job's lifetime: silent
	defer job.CancelFn(nil)
	once(s.db) // want `lifetime\.once, called in handler Server\.GetItem, works with context\.Background\(\); pass ctx down`
	return &catalogpb.Item{Id: req.GetId()}, nil
}
