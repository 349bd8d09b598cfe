// Package sleeps holds handlers that sleep: once, on purpose (a rate limiter's penalty), which
// is not reported; in a loop that never asks whether the request is still there (a poll, a
// retry backoff), which is; and in loops that do ask, which are not.
package sleeps

import (
	"context"
	"errors"
	"time"

	"example.com/gen/catalogpb"
)

type store interface {
	Get(ctx context.Context, id string) (*catalogpb.Item, error)
	Ready(id string) bool
}

var errBusy = errors.New("busy")

// Server serves the catalog.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	db      store
	penalty time.Duration
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	time.Sleep(s.penalty) // a rate limiter's one penalty: silent
	go s.prefetch(ctx, req.GetId())

	for !s.db.Ready(req.GetId()) {
		time.Sleep(10 * time.Millisecond) // want `time.Sleep in handler Server.GetItem keeps the loop sleeping after the request is cancelled; use a select on ctx.Done\(\) and a time.Timer`
	}

	for attempt := 0; ; attempt++ {
		item, err := s.db.Get(ctx, req.GetId())
		if !errors.Is(err, errBusy) || attempt == 3 {
			return item, err
		}
		time.Sleep(time.Duration(attempt) * 50 * time.Millisecond) // want `time.Sleep in handler Server.GetItem keeps the loop sleeping`
	}
}

// Retry's loop checks the ctx at every turn: it stops within one sleep.
//
//deadlinelint:scope
func (s *Server) Retry(ctx context.Context, id string) (*catalogpb.Item, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		item, err := s.db.Get(ctx, id)
		if !errors.Is(err, errBusy) {
			return item, err
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Poll's loop asks the ctx at every turn.
//
//deadlinelint:scope
func (s *Server) Poll(ctx context.Context, id string) error {
	for !s.db.Ready(id) {
		select {
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		time.Sleep(10 * time.Millisecond)
	}
	return nil
}

// Spin's loop never asks: a marked scope is checked like a handler.
//
//deadlinelint:scope
func (s *Server) Spin(ctx context.Context, id string) {
	for !s.db.Ready(id) {
		time.Sleep(time.Millisecond) // want `time.Sleep in request scope Server.Spin keeps the loop sleeping`
	}
}

// Watch checks the ctx only where it hands a change on: the turn that finds nothing sleeps and
// goes round again without asking.
//
//deadlinelint:scope
func (s *Server) Watch(ctx context.Context, id string, out chan<- string) error {
	for {
		if !s.db.Ready(id) {
			time.Sleep(time.Second) // want `time.Sleep in request scope Server.Watch keeps the loop sleeping`
			continue
		}
		select {
		case out <- id:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Batches paces a range-over-func loop: its body is a function the iterator calls again.
//
//deadlinelint:scope
func (s *Server) Batches(ctx context.Context, ids []string) {
	for id := range each(ids) {
		_ = s.db.Ready(id)
		time.Sleep(time.Millisecond) // want `time.Sleep in request scope Server.Batches keeps the loop sleeping`
	}
}

func each(ids []string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for _, id := range ids {
			if !yield(id) {
				return
			}
		}
	}
}

// prefetch runs as the goroutine GetItem starts with its request ctx, and for nothing else: a
// request scope of its own.
func (s *Server) prefetch(ctx context.Context, id string) {
	for !s.db.Ready(id) {
		time.Sleep(time.Millisecond) // want `time.Sleep in handler Server.GetItem keeps the loop sleeping after the request is cancelled; use a select on the Done channel of ctx and a time.Timer`
	}
}

// ListItems paces a server stream. Each turn sends, and returns when the Send fails, which it
// does once the client has gone: the loop sleeps at most once more. Reported all the same: a
// pause that cannot be cut short holds the handler for its length after the request is over,
// and a select on the stream's Done channel is the fix people expect (a turn that asks
// ctx.Err() instead is the one shape left silent).
func (s *Server) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	for _, id := range []string{"a", "b"} {
		if err := stream.Send(&catalogpb.Item{Id: id}); err != nil {
			return err
		}
		time.Sleep(s.penalty) // want `time.Sleep in handler Server.ListItems keeps the loop sleeping`
	}
	return nil
}

// Reload polls with the request's ctx and returns when the poll fails: reported, as the poll a
// store that never asks its ctx keeps answering would be.
//
//deadlinelint:scope
func (s *Server) Reload(ctx context.Context, id string) error {
	for {
		item, err := s.db.Get(ctx, id)
		if err != nil {
			return err
		}
		if item.GetName() != "" {
			return nil
		}
		time.Sleep(10 * time.Millisecond) // want `time.Sleep in request scope Server.Reload keeps the loop sleeping`
	}
}
