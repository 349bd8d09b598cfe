package tied

import (
	"context"
	"time"

	"example.com/gen/catalogpb"
)

// Sender hands a ctx to a goroutine and waits for it, or for a timer: its deferred cancel
// ends the work when the timer fires, a watchdog written by hand. Not reported. A wait in a
// loop, a way out that skips the wait, a cancel not deferred, a wait on something else than a
// timer, or a ctx also used before the wait bound nothing.
type Sender struct {
	c       catalogpb.CatalogClient
	timeout time.Duration
}

// Ticker waits for the work or the ticker, as a reconciler sending logs off its thread does.
func (s *Sender) Ticker(id string) {
	go func() {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		ticker := time.NewTicker(s.timeout)
		done := make(chan struct{})
		go func() {
			defer close(done)
			s.c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id})
		}()
		select {
		case <-ticker.C:
		case <-done:
			ticker.Stop()
		}
	}()
}

// After passes the ctx to the goroutine as an argument and waits with time.After.
func (s *Sender) After(id string, done chan error) error {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	go s.send(ctx, id, done)
	select {
	case <-time.After(s.timeout):
		return context.DeadlineExceeded
	case err := <-done:
		return err
	}
}

// Timer waits on a timer's channel alone.
func (s *Sender) Timer(id string) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	t := time.NewTimer(s.timeout)
	go s.send(ctx, id, nil)
	<-t.C
}

func (s *Sender) send(ctx context.Context, id string, done chan error) {
	_, err := s.c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id})
	if done != nil {
		done <- err
	}
}

// Looped waits for the ticker in a loop that goes on after each tick: no bound.
func (s *Sender) Looped(id string, done chan struct{}) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ticker := time.NewTicker(s.timeout)
	go func() {
		s.c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\)\)`
		close(done)
	}()
	for {
		select {
		case <-ticker.C:
			continue
		case <-done:
			return
		}
	}
}

// Skips returns without waiting when asked to: the work then runs unbounded.
func (s *Sender) Skips(id string, wait bool, done chan struct{}) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		s.c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\)\)`
		close(done)
	}()
	if !wait {
		<-done
		return
	}
	select {
	case <-time.After(s.timeout):
	case <-done:
	}
}

// NotDeferred cancels only when the work is done: the timer ends the wait, not the work.
func (s *Sender) NotDeferred(id string, done chan struct{}) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		s.c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\)\)`
		cancel()
		close(done)
	}()
	select {
	case <-time.After(s.timeout):
	case <-done:
	}
}

// Untimed waits for the work alone.
func (s *Sender) Untimed(id string, done chan struct{}) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		s.c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\)\)`
		close(done)
	}()
	<-done
}

// Before makes a call with the ctx itself before it waits: that call has no bound.
func (s *Sender) Before(id string) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\)\)`
	go s.send(ctx, id, nil)
	<-time.After(s.timeout)
}

// Drains waits for the work again once the timer fired: the function returns, and cancels,
// only when the work is done.
func (s *Sender) Drains(id string, done chan struct{}) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		s.c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\)\)`
		close(done)
	}()
	select {
	case <-time.After(s.timeout):
	case <-done:
	}
	<-done
}
