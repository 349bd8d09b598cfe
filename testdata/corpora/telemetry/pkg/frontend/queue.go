package frontend

import (
	"context"
	"errors"
	"sync"

	"example.test/telemetry/gen/ingesterpb"
)

// ErrTooManyRequests is returned when a tenant's queue is full.
var ErrTooManyRequests = errors.New("too many outstanding requests")

type result struct {
	resp *ingesterpb.SearchResponse
	err  error
}

// job is one sub-query queued on behalf of a request.
type job struct {
	ctx     context.Context
	tenant  string
	req     *ingesterpb.SearchRequest
	attempt int
	result  chan result
}

// tenantQueue is one tenant's queue; its ctx ends when the tenant's queue is
// torn down.
type tenantQueue struct {
	tenant string
	ctx    context.Context
	cancel context.CancelFunc
	jobs   []*job
	max    int
}

func newTenantQueue(tenant string, max int) *tenantQueue {
	return &tenantQueue{tenant: tenant, max: max}
}

// start ties the queue's lifetime to parent; stop ends it.
func (tq *tenantQueue) start(parent context.Context) {
	tq.ctx, tq.cancel = context.WithCancel(parent)
}

func (tq *tenantQueue) stop() {
	if tq.cancel != nil {
		tq.cancel()
	}
}

// requestQueue round-robins between tenants' queues.
type requestQueue struct {
	mu      sync.Mutex
	cond    *sync.Cond
	tenants []*tenantQueue
	next    int
	closed  bool
}

func newRequestQueue() *requestQueue {
	q := &requestQueue{}
	q.cond = sync.NewCond(&q.mu)
	return q
}

func (q *requestQueue) add(tq *tenantQueue) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.tenants = append(q.tenants, tq)
}

func (q *requestQueue) enqueue(tq *tenantQueue, j *job) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(tq.jobs) >= tq.max {
		return ErrTooManyRequests
	}
	tq.jobs = append(tq.jobs, j)
	q.cond.Signal()
	return nil
}

// dequeue blocks until a job is available or the queue is closed.
func (q *requestQueue) dequeue() (*job, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for {
		if q.closed {
			return nil, false
		}
		for n := 0; n < len(q.tenants); n++ {
			tq := q.tenants[(q.next+n)%len(q.tenants)]
			if len(tq.jobs) > 0 {
				j := tq.jobs[0]
				tq.jobs = tq.jobs[1:]
				q.next = (q.next + n + 1) % len(q.tenants)
				return j, true
			}
		}
		q.cond.Wait()
	}
}

func (q *requestQueue) close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.closed = true
	q.cond.Broadcast()
}
