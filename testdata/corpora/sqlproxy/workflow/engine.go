// Package workflow runs the long jobs vtctld starts on an operator's
// behalf, such as the row copy of a reshard. A job outlives the request that
// started it: it runs on the engine's lifetime until it finishes or is
// cancelled.
package workflow

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"example.test/sqlproxy/internal/servenv"
	"example.test/sqlproxy/tmclient"
	"example.test/sqlproxy/topo"
)

// ErrNoWorkflow is returned for an unknown workflow id.
var ErrNoWorkflow = errors.New("no such workflow")

// State is the state of a job.
type State string

// Job states.
const (
	StateRunning  State = "Running"
	StateFinished State = "Finished"
	StateFailed   State = "Failed"
)

const copyBatch = 1000

// Spec describes a reshard.
type Spec struct {
	Name          string
	Keyspace      string
	SourceShards  []string
	TargetShards  []string
	SourceTablets map[string]string // shard -> tablet manager address
	TargetTablets map[string]string
	Table         string
}

// Job is one running workflow.
type Job struct {
	ID       string
	Spec     Spec
	Ctx      context.Context
	CancelFn func(error)

	rowsCopied atomic.Int64
	done       chan struct{}

	mu      sync.Mutex
	state   State
	message string
}

func (j *Job) finish(err error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if err != nil {
		j.state, j.message = StateFailed, err.Error()
		return
	}
	j.state = StateFinished
}

// Event is one event of the workflow event stream.
type Event struct {
	Kind     string
	Keyspace string
	Tablet   string
}

// Engine runs jobs.
type Engine struct {
	ts           *topo.Server
	tmc          *tmclient.Client
	stallTimeout time.Duration
	eventTimeout time.Duration
	events       chan Event
	seq          atomic.Int64

	ctx    context.Context
	cancel context.CancelFunc

	mu   sync.Mutex
	jobs map[string]*Job
}

// NewEngine returns an engine; Open starts its event consumer.
func NewEngine(ts *topo.Server, tmc *tmclient.Client) *Engine {
	ctx, cancel := context.WithCancel(context.Background()) // OK: ctxbackground — constructor: the engine's lifetime
	return &Engine{
		ts:           ts,
		tmc:          tmc,
		stallTimeout: 2 * time.Minute,
		eventTimeout: 30 * time.Second,
		events:       make(chan Event, 128),
		ctx:          ctx,
		cancel:       cancel,
		jobs:         map[string]*Job{},
	}
}

// Open starts the event consumer.
func (e *Engine) Open() { go e.consume(e.ctx) }

// Close cancels every job and waits up to a minute for them to stop.
func (e *Engine) Close() {
	e.cancel()
	e.mu.Lock()
	jobs := make([]*Job, 0, len(e.jobs))
	for _, j := range e.jobs {
		jobs = append(jobs, j)
	}
	e.mu.Unlock()
	deadline := time.After(time.Minute)
	for _, j := range jobs {
		select {
		case <-j.done:
		case <-deadline:
			return
		}
	}
}

// Start checks spec, creates the target shards and starts the job on a
// goroutine of its own, on the engine's lifetime: CancelWorkflow ends it.
func (e *Engine) Start(ctx context.Context, spec Spec) (*Job, error) {
	if _, err := e.ts.GetKeyspace(ctx, spec.Keyspace); err != nil {
		return nil, err
	}
	for _, sh := range spec.TargetShards {
		if err := e.ts.CreateShard(ctx, spec.Keyspace, sh); err != nil {
			return nil, err
		}
	}
	jctx, cancel := context.WithCancelCause(e.ctx)
	j := &Job{
		ID:       fmt.Sprintf("%s-%d", spec.Name, e.seq.Add(1)),
		Spec:     spec,
		Ctx:      jctx,
		CancelFn: func(err error) { cancel(err) },
	}
	e.Adopt(j)
	return j, nil
}

// Adopt registers a job prepared by the caller and starts it.
func (e *Engine) Adopt(j *Job) {
	j.state = StateRunning
	j.done = make(chan struct{})
	e.mu.Lock()
	e.jobs[j.ID] = j
	e.mu.Unlock()
	go e.run(j)
}

func (e *Engine) run(j *Job) {
	defer close(j.done)
	err := e.copyRows(j)
	if err == nil {
		err = e.switchTraffic(j)
	}
	j.finish(err)
	if err != nil {
		servenv.Warningf(j.Ctx, "workflow %s failed: %v", j.ID, err)
	}
}

func (e *Engine) copyRows(j *Job) error {
	// A watchdog cancels the copy when no batch makes progress for
	// stallTimeout; every batch resets it.
	ctx, cancel := context.WithCancel(j.Ctx)
	defer cancel()
	wd := time.AfterFunc(e.stallTimeout, cancel)
	defer wd.Stop()
	for _, addr := range j.Spec.SourceTablets {
		for offset := 0; ; offset += copyBatch {
			q := fmt.Sprintf("SELECT * FROM %s ORDER BY id LIMIT %d, %d", j.Spec.Table, offset, copyBatch)
			resp, err := e.tmc.ExecuteFetchAsDba(ctx, addr, q, copyBatch) // OK: missingdeadline — a watchdog (time.AfterFunc(d, cancel)) that every batch resets bounds the ctx
			if err != nil {
				return err
			}
			wd.Reset(e.stallTimeout)
			n := len(resp.GetRows())
			j.rowsCopied.Add(int64(n))
			if n < copyBatch {
				break
			}
		}
	}
	return nil
}

func (e *Engine) switchTraffic(j *Job) error {
	for _, addr := range j.Spec.TargetTablets {
		if err := e.tmc.ChangeType(j.Ctx, addr, "primary", true); err != nil { // OK: missingdeadline — ChangeType hands its RPC to invoke, which derives the client's call timeout first
			return err
		}
	}
	ctx, cancel := context.WithTimeout(j.Ctx, 30*time.Second)
	defer cancel()
	return e.ts.RecordEvent(ctx, j.Spec.Keyspace, "SwitchTraffic", j.ID)
}

// Status returns the state of workflow id, from memory.
func (e *Engine) Status(ctx context.Context, id string) (State, int64, string, error) {
	e.mu.Lock()
	j, ok := e.jobs[id]
	e.mu.Unlock()
	if !ok {
		return "", 0, "", fmt.Errorf("workflow %s: %w", id, ErrNoWorkflow)
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.state, j.rowsCopied.Load(), j.message, nil
}

// Cancel cancels workflow id.
func (e *Engine) Cancel(id, reason string) error {
	e.mu.Lock()
	j, ok := e.jobs[id]
	e.mu.Unlock()
	if !ok {
		return fmt.Errorf("workflow %s: %w", id, ErrNoWorkflow)
	}
	j.CancelFn(errors.New(reason))
	return nil
}

// Notify queues an event for the consumer; it is dropped when the queue is
// full.
func (e *Engine) Notify(ev Event) {
	select {
	case e.events <- ev:
	default:
	}
}

func (e *Engine) jobsOf(keyspace string) []*Job {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []*Job
	for _, j := range e.jobs {
		if j.Spec.Keyspace == keyspace {
			out = append(out, j)
		}
	}
	return out
}

func (e *Engine) consume(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case ev := <-e.events:
			hctx, cancel := context.WithTimeout(ctx, e.eventTimeout)
			if err := e.handleEvent(hctx, ev); err != nil {
				servenv.Warningf(hctx, "workflow event %s on %s: %v", ev.Kind, ev.Keyspace, err)
			}
			cancel()
		}
	}
}

// handleEvent applies one event of the workflow event stream: a schema
// change on a source is replayed on the targets of every job of its
// keyspace. Each event is handled under the consumer's event timeout.
//
//deadlinelint:scope
func (e *Engine) handleEvent(ctx context.Context, ev Event) error {
	switch ev.Kind {
	case "ddl":
		for _, j := range e.jobsOf(ev.Keyspace) {
			for _, addr := range j.Spec.TargetTablets {
				if err := e.tmc.ReloadSchema(context.Background(), addr, ""); err != nil { // BUG: ctxbackground — the event carries the consumer's timeout; the reload on the targets runs with none and stalls the event stream
					return err
				}
			}
		}
	case "heartbeat":
		servenv.Infof(ctx, "heartbeat from %s", ev.Tablet)
	}
	return nil
}
