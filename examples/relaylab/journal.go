package relaylab

import (
	"context"
	"sync"
	"time"
)

// visit is what one hop observed while handling a request.
type visit struct {
	// budget is the time left before the hop's deadline when its handler
	// started; hasDeadline is false when its context had no deadline at all.
	budget      time.Duration
	hasDeadline bool

	// late is set when the hop answered after its own context was done:
	// it did work that nobody was waiting for.
	late bool

	// running is true from the start of the handler until it returns.
	running bool
}

// journal records the visits of every hop of one chain. It is safe for
// concurrent use by the hops' handlers.
type journal struct {
	mu     sync.Mutex
	visits map[string]visit
	idle   *sync.Cond // signalled each time a handler returns
}

func newJournal() *journal {
	j := &journal{visits: make(map[string]visit)}
	j.idle = sync.NewCond(&j.mu)
	return j
}

func (j *journal) started(ctx context.Context, name string) {
	v := visit{running: true}
	if dl, ok := ctx.Deadline(); ok {
		v.budget, v.hasDeadline = time.Until(dl), true
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	j.visits[name] = v
}

func (j *journal) workedPastDeadline(name string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	v := j.visits[name]
	v.late = true
	j.visits[name] = v
}

func (j *journal) returned(name string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	v := j.visits[name]
	v.running = false
	j.visits[name] = v
	j.idle.Broadcast()
}

// visit returns what the named hop observed; ok is false if it never ran.
func (j *journal) visit(name string) (v visit, ok bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	v, ok = j.visits[name]
	return v, ok
}

// waitIdle blocks until no handler is running or the timeout elapses, and
// reports whether the chain went idle. Handlers keep running after the client
// got its answer when a hop ignores the deadline; this lets a test see them out.
func (j *journal) waitIdle(timeout time.Duration) bool {
	expired := false
	timer := time.AfterFunc(timeout, func() {
		j.mu.Lock()
		defer j.mu.Unlock()
		expired = true
		j.idle.Broadcast()
	})
	defer timer.Stop()

	j.mu.Lock()
	defer j.mu.Unlock()
	for j.anyRunning() && !expired {
		j.idle.Wait()
	}
	return !j.anyRunning()
}

func (j *journal) anyRunning() bool {
	for _, v := range j.visits {
		if v.running {
			return true
		}
	}
	return false
}
