// Package api serves the catalog over tasks of the waiter package: a root handed only to
// calls that use it on goroutines they start (a wait returning a channel, a watch) is those
// goroutines' lifetime, not work lost to the request. Beside them, the same roots handed to
// calls that do their work before they return.
package api

import (
	"context"

	"ctxbackground/async/waiter"

	"example.com/gen/catalogpb"
)

// Server serves the catalog.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	task  waiter.Task
	batch waiter.Job
	own   waiter.Job
	job   waiter.Job
	rt    waiter.Runtime
	codes chan int
}

// New wires a server; batch is its caller's choice, own and job are the two implementations
// of waiter.Job.
func New(rt waiter.Runtime, batch waiter.Job) *Server {
	return &Server{
		task:  waiter.Open("t", rt),
		batch: batch,
		own:   &waiter.Batch{Rt: rt},
		job:   &waiter.Inline{Rt: rt},
		rt:    rt,
		codes: make(chan int),
	}
}

// stop waits for the task's exit on a root it cancels as it returns: the wait runs on the
// goroutine Task.Wait starts, and the signal uses the caller's ctx.
func (s *Server) stop(ctx context.Context) error {
	waitCtx, cancel := context.WithCancel(context.Background())
	defer cancel()
	exit, err := s.task.Wait(waitCtx)
	if err != nil {
		return err
	}
	if err := s.task.Kill(ctx, 15); err != nil {
		return err
	}
	select {
	case <-exit:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// kill signals with a root: Kill's work is the call's own.
func (s *Server) kill() error { // want kill:"drops ctx"
	return s.task.Kill(context.Background(), 9)
}

// follow starts a watch of its own.
func (s *Server) follow(id string) {
	waiter.Watch(context.Background(), s.rt, id, s.codes)
}

// prepare looks like follow, but Prepared waits before its goroutine starts.
func (s *Server) prepare(id string) { // want prepare:"drops ctx"
	waiter.Prepared(context.Background(), s.rt, id, s.codes)
}

// later runs a wait it kept in a literal: not on a goroutine.
func (s *Server) later(id string) { // want later:"drops ctx"
	waiter.Deferred(context.Background(), s.rt, id)()
}

// batchWait calls through waiter.Job a value its caller chose: Batch's Wait starts a
// goroutine, but Inline, which implements it too, waits before it returns: not every
// implementation in sight starts a goroutine.
func (s *Server) batchWait() { // want batchWait:"drops ctx"
	_, _ = s.batch.Wait(context.Background())
}

// ownWait calls through waiter.Job too, but the field only ever holds the Batch New makes,
// whose Wait starts a goroutine: Inline is never there.
func (s *Server) ownWait() {
	_, _ = s.own.Wait(context.Background())
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if err := s.stop(ctx); err != nil { // a wait on a goroutine of its own: silent
		return nil, err
	}
	s.follow(req.GetId()) // a watch of its own: silent
	watchCtx, cancel := context.WithCancel(context.Background())
	defer cancel()
	exit, _ := s.task.Wait(watchCtx) // in the handler too: silent
	_ = exit
	s.prepare(req.GetId())           // want `api\.Server\.prepare, called in handler Server\.GetItem, works with context\.Background\(\); pass ctx down`
	s.later(req.GetId())             // want `api\.Server\.later, called in handler Server\.GetItem, works with context\.Background\(\); pass ctx down`
	s.batchWait()                    // want `api\.Server\.batchWait, called in handler Server\.GetItem, works with context\.Background\(\); pass ctx down`
	s.ownWait()                      // a wait on a goroutine of its own: silent
	if err := s.kill(); err != nil { // want `api\.Server\.kill, called in handler Server\.GetItem, works with context\.Background\(\); pass ctx down`
		return nil, err
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}
