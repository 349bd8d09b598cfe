package conc

import (
	"context"
	"errors"
	"sync"
	"time"

	"example.test/vectordb/internal/log"
)

// Task is work a coordinator schedules. It runs after the RPC that enqueued
// it returned, with a budget of its own.
type Task interface {
	ID() int64
	Name() string
	Timeout() time.Duration
	Execute(ctx context.Context) error
}

// ErrSchedulerClosed is returned by Enqueue after Stop.
var ErrSchedulerClosed = errors.New("scheduler closed")

// Scheduler runs tasks on its own goroutines, one at a time per queue.
type Scheduler struct {
	mu      sync.Mutex
	closed  bool
	pool    *Pool
	running map[int64]context.CancelFunc
}

// NewScheduler returns a scheduler running at most n tasks at once.
func NewScheduler(n int) *Scheduler {
	return &Scheduler{pool: NewPool(n), running: map[int64]context.CancelFunc{}}
}

// Enqueue hands t to the scheduler and returns at once.
func (s *Scheduler) Enqueue(t Task) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrSchedulerClosed
	}
	s.mu.Unlock()
	s.pool.Submit(func() error {
		ctx, cancel := context.WithTimeout(context.Background(), t.Timeout())
		defer cancel()
		s.mu.Lock()
		s.running[t.ID()] = cancel
		s.mu.Unlock()
		defer func() {
			s.mu.Lock()
			delete(s.running, t.ID())
			s.mu.Unlock()
		}()
		err := t.Execute(ctx)
		if err != nil {
			log.L().Warn("task failed", log.String("task", t.Name()), log.Int64("id", t.ID()), log.Err(err))
		}
		return err
	})
	return nil
}

// Cancel cancels a running task.
func (s *Scheduler) Cancel(id int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.running[id]; ok {
		c()
		return true
	}
	return false
}

// Stop cancels every running task and waits for them.
func (s *Scheduler) Stop() {
	s.mu.Lock()
	s.closed = true
	for _, c := range s.running {
		c()
	}
	s.mu.Unlock()
	s.pool.Wait()
}
