// Package workqueue is a small de-duplicating, rate-limited work queue in the
// spirit of client-go's: a key is processed by at most one worker at a time,
// and re-adding a key while it is being processed defers it until Done.
package workqueue

import (
	"math"
	"sync"
	"time"
)

// Queue is a FIFO of unique keys.
type Queue[T comparable] struct {
	mu         sync.Mutex
	cond       *sync.Cond
	items      []T
	dirty      map[T]struct{}
	processing map[T]struct{}
	failures   map[T]int
	shutdown   bool

	baseDelay time.Duration
	maxDelay  time.Duration
}

// New returns a queue whose AddRateLimited backs off exponentially from base to max.
func New[T comparable](base, max time.Duration) *Queue[T] {
	q := &Queue[T]{
		dirty:      make(map[T]struct{}),
		processing: make(map[T]struct{}),
		failures:   make(map[T]int),
		baseDelay:  base,
		maxDelay:   max,
	}
	q.cond = sync.NewCond(&q.mu)
	return q
}

// Add marks key as needing processing.
func (q *Queue[T]) Add(key T) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.shutdown {
		return
	}
	if _, ok := q.dirty[key]; ok {
		return
	}
	q.dirty[key] = struct{}{}
	if _, ok := q.processing[key]; ok {
		return
	}
	q.items = append(q.items, key)
	q.cond.Signal()
}

// AddAfter adds key once delay has passed.
func (q *Queue[T]) AddAfter(key T, delay time.Duration) {
	if delay <= 0 {
		q.Add(key)
		return
	}
	time.AfterFunc(delay, func() { q.Add(key) })
}

// AddRateLimited re-adds key after a per-key exponential backoff.
func (q *Queue[T]) AddRateLimited(key T) {
	q.mu.Lock()
	n := q.failures[key]
	q.failures[key] = n + 1
	q.mu.Unlock()

	d := time.Duration(float64(q.baseDelay) * math.Pow(2, float64(n)))
	if d > q.maxDelay || d <= 0 {
		d = q.maxDelay
	}
	q.AddAfter(key, d)
}

// Forget resets the backoff of key.
func (q *Queue[T]) Forget(key T) {
	q.mu.Lock()
	delete(q.failures, key)
	q.mu.Unlock()
}

// Retries reports how many times key has been re-queued with AddRateLimited.
func (q *Queue[T]) Retries(key T) int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.failures[key]
}

// Get blocks until a key is available or the queue is shut down.
func (q *Queue[T]) Get() (key T, shutdown bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 && !q.shutdown {
		q.cond.Wait()
	}
	if len(q.items) == 0 {
		return key, true
	}
	key, q.items = q.items[0], q.items[1:]
	q.processing[key] = struct{}{}
	delete(q.dirty, key)
	return key, false
}

// Done marks key as processed; if it was re-added meanwhile it is queued again.
func (q *Queue[T]) Done(key T) {
	q.mu.Lock()
	defer q.mu.Unlock()
	delete(q.processing, key)
	if _, ok := q.dirty[key]; ok {
		q.items = append(q.items, key)
		q.cond.Signal()
	}
}

// Len is the number of keys waiting.
func (q *Queue[T]) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.items)
}

// ShutDown wakes all workers; Get returns shutdown=true once the queue is empty.
func (q *Queue[T]) ShutDown() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.shutdown = true
	q.cond.Broadcast()
}
