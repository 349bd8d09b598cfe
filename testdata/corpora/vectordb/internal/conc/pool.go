// Package conc holds the concurrency helpers of the cluster: a bounded
// worker pool, a singleflight group, a task scheduler whose tasks outlive the
// RPC that submitted them, and a retry helper.
package conc

import (
	"context"
	"sync"
	"time"
)

// Future is the result of a task submitted to a Pool.
type Future struct {
	done chan struct{}
	err  error
}

// Await blocks until the task finished.
func (f *Future) Await() error { <-f.done; return f.err }

// Done is closed when the task finished.
func (f *Future) Done() <-chan struct{} { return f.done }

// Pool runs tasks on at most n goroutines.
type Pool struct {
	sem chan struct{}
	wg  sync.WaitGroup
}

// NewPool returns a pool of n workers.
func NewPool(n int) *Pool { return &Pool{sem: make(chan struct{}, n)} }

// Submit runs fn on a goroutine of the pool. The task keeps running after
// the caller returned.
func (p *Pool) Submit(fn func() error) *Future {
	f := &Future{done: make(chan struct{})}
	p.sem <- struct{}{}
	p.wg.Add(1)
	go func() {
		defer func() { <-p.sem; p.wg.Done(); close(f.done) }()
		f.err = fn()
	}()
	return f
}

// Wait waits for every submitted task.
func (p *Pool) Wait() { p.wg.Wait() }

// AwaitAll waits for every future and returns the first error.
func AwaitAll(fs ...*Future) error {
	var first error
	for _, f := range fs {
		if err := f.Await(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Group suppresses duplicate calls with the same key (singleflight).
type Group struct {
	mu sync.Mutex
	m  map[string]*call
}

type call struct {
	wg  sync.WaitGroup
	val any
	err error
}

// Do runs fn once for every key in flight; callers with the same key wait
// for its result.
func (g *Group) Do(key string, fn func() (any, error)) (any, error) {
	g.mu.Lock()
	if g.m == nil {
		g.m = map[string]*call{}
	}
	if c, ok := g.m[key]; ok {
		g.mu.Unlock()
		c.wg.Wait()
		return c.val, c.err
	}
	c := &call{}
	c.wg.Add(1)
	g.m[key] = c
	g.mu.Unlock()

	c.val, c.err = fn()
	c.wg.Done()

	g.mu.Lock()
	delete(g.m, key)
	g.mu.Unlock()
	return c.val, c.err
}

// Retry calls fn up to attempts times with ctx, backing off between tries,
// and stops early once ctx is done.
func Retry(ctx context.Context, attempts int, backoff time.Duration, fn func(context.Context) error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = fn(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff):
		}
		backoff *= 2
	}
	return err
}

// Inject marks a fault-injection point. A build tool rewrites the marker
// into a call of fn in fault-injection builds; in normal builds it does
// nothing and fn never runs.
func Inject(name string, fn func()) {}
