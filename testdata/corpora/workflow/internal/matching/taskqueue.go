// Package matching matches tasks with pollers, per task queue partition.
package matching

import (
	"context"
	"sync"
	"time"

	matchingv1 "example.test/workflow/gen/matching/v1"
	"example.test/workflow/internal/obs"
	"example.test/workflow/internal/persistence"
)

type taskQueue struct {
	name   string
	tasks  chan *matchingv1.Task
	writer *taskWriter
}

// taskWriter batches tasks to persistence after the request returned.
type taskWriter struct {
	in    chan persistence.Task
	store *persistence.Store
}

func newTaskWriter(store *persistence.Store) *taskWriter {
	w := &taskWriter{in: make(chan persistence.Task, 256), store: store}
	go w.flushLoop()
	return w
}

// Append queues t for the next batch.
func (w *taskWriter) Append(t persistence.Task) { w.in <- t }

func (w *taskWriter) flushLoop() {
	var batch []persistence.Task
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case t := <-w.in:
			batch = append(batch, t)
			if len(batch) < 64 {
				continue
			}
		case <-tick.C:
		}
		if len(batch) == 0 {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // OK: ctxbackground — batcher's own work, runs after the requests
		if err := w.store.CreateTasks(ctx, batch); err != nil {
			obs.L.Error(ctx, "flush tasks", "err", err)
		}
		cancel()
		batch = batch[:0]
	}
}

// queueManager creates task queues on first use and keeps them.
type queueManager struct {
	mu     sync.Mutex
	queues map[string]*taskQueue
	store  *persistence.Store
}

func (m *queueManager) get(ctx context.Context, name string) *taskQueue {
	m.mu.Lock()
	defer m.mu.Unlock()
	tq, ok := m.queues[name]
	if !ok {
		tq = &taskQueue{name: name, tasks: make(chan *matchingv1.Task), writer: newTaskWriter(m.store)}
		m.queues[name] = tq
		obs.L.Info(ctx, "task queue loaded", "queue", name)
	}
	return tq
}

// trySyncMatch hands t to a waiting poller, if any.
func (tq *taskQueue) trySyncMatch(ctx context.Context, t *matchingv1.Task) bool {
	select {
	case tq.tasks <- t:
		return true
	case <-time.After(10 * time.Millisecond):
		return false
	case <-ctx.Done():
		return false
	}
}
