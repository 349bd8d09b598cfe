// Package ops tracks long-running operations started by API calls (drains,
// restarts, diagnostics) so that clients can poll them.
package ops

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"sync"
	"time"
)

// State of an operation.
type State int

const (
	Running State = iota + 1
	Succeeded
	Failed
	Cancelled
)

func (s State) String() string {
	switch s {
	case Running:
		return "running"
	case Succeeded:
		return "succeeded"
	case Failed:
		return "failed"
	case Cancelled:
		return "cancelled"
	}
	return "unknown"
}

// ErrUnknown is returned for an unknown operation id.
var ErrUnknown = errors.New("ops: unknown operation")

// Operation is a snapshot of one operation.
type Operation struct {
	ID         string
	Kind       string
	Target     string
	State      State
	Err        string
	Result     []byte
	StartedAt  time.Time
	FinishedAt time.Time
}

type entry struct {
	op     Operation
	cancel context.CancelFunc
}

// Tracker holds operations in memory for a retention period.
type Tracker struct {
	mu        sync.Mutex
	ops       map[string]*entry
	retention time.Duration
	onFinish  func(Operation)
}

// NewTracker returns an empty tracker; onFinish (may be nil) is called once
// for every operation that ends.
func NewTracker(retention time.Duration, onFinish func(Operation)) *Tracker {
	return &Tracker{ops: make(map[string]*entry), retention: retention, onFinish: onFinish}
}

// Begin registers a running operation and returns it with a ctx that Cancel
// will cancel. fn runs in its own goroutine on that ctx.
func (t *Tracker) Begin(ctx context.Context, kind, target string, fn func(ctx context.Context) ([]byte, error)) Operation {
	ctx, cancel := context.WithCancel(ctx)
	e := &entry{op: Operation{ID: newID(), Kind: kind, Target: target, State: Running, StartedAt: time.Now()}, cancel: cancel}
	t.mu.Lock()
	t.ops[e.op.ID] = e
	snap := e.op
	t.mu.Unlock()

	go func() {
		defer cancel()
		res, err := fn(ctx)
		t.finish(e, res, err, ctx.Err())
	}()
	return snap
}

func (t *Tracker) finish(e *entry, res []byte, err, ctxErr error) {
	t.mu.Lock()
	switch {
	case errors.Is(ctxErr, context.Canceled) && e.op.State == Cancelled:
	case err != nil:
		e.op.State = Failed
		e.op.Err = err.Error()
	default:
		e.op.State = Succeeded
	}
	e.op.Result = res
	e.op.FinishedAt = time.Now()
	snap := e.op
	t.mu.Unlock()
	if t.onFinish != nil {
		t.onFinish(snap)
	}
}

// Get returns a snapshot of operation id.
func (t *Tracker) Get(id string) (Operation, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e, ok := t.ops[id]
	if !ok {
		return Operation{}, ErrUnknown
	}
	return e.op, nil
}

// Cancel cancels a running operation.
func (t *Tracker) Cancel(id string) (Operation, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e, ok := t.ops[id]
	if !ok {
		return Operation{}, ErrUnknown
	}
	if e.op.State == Running {
		e.op.State = Cancelled
		e.cancel()
	}
	return e.op, nil
}

// Running returns how many operations are in flight.
func (t *Tracker) Running() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := 0
	for _, e := range t.ops {
		if e.op.State == Running {
			n++
		}
	}
	return n
}

// Prune forgets finished operations older than the retention.
func (t *Tracker) Prune(now time.Time) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := 0
	for id, e := range t.ops {
		if e.op.State != Running && now.Sub(e.op.FinishedAt) > t.retention {
			delete(t.ops, id)
			n++
		}
	}
	return n
}

func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "op-" + hex.EncodeToString(b[:])
}
