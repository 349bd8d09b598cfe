// Package shapes holds streaming loops whose channel or exit condition travels through a shape
// the loop's own function does not show: a channel a goroutine's literal captured, a method
// the handler starts on its own receiver, the value a select's case received, a field of a
// local struct set before the loop.
package shapes

import (
	"context"
	"time"

	"example.com/gen/catalogpb"
)

type update struct {
	id    string
	state string
}

// done computes from the update alone.
func (u update) done() bool { return u.state == "done" || u.state == "failed" }

type broker interface {
	Watch(ctx context.Context, topic string) <-chan update
	Updates(topic string) <-chan update
}

type Server struct {
	catalogpb.UnimplementedCatalogServer
	life    context.Context // the server's lifetime
	bus     broker
	events  chan update
	flushed chan int
}

// ListItems relays, from goroutines, channels each captured by a literal.
func (s *Server) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	ctx := stream.Context()
	lifelong := s.bus.Watch(s.life, req.GetCategory())
	go func() {
		for u := range lifelong { // want `loop in streaming handler Server\.ListItems waits on a channel that outlives the request`
			stream.Send(&catalogpb.Item{Id: u.id})
		}
	}()
	scoped := s.bus.Watch(ctx, req.GetCategory())
	go func() {
		for u := range scoped { // closed when the stream's ctx ends: silent
			stream.Send(&catalogpb.Item{Id: u.id})
		}
	}()
	out := make(chan update)
	go s.follow(ctx, req.GetCategory(), out)
	go s.followScoped(ctx, req.GetCategory(), out)
	for u := range out { // made here, and Send's error returned: silent
		if err := stream.Send(&catalogpb.Item{Id: u.id}); err != nil {
			return err
		}
	}
	return nil
}

// follow is started by the handler on its own receiver: the server's channel outlives it.
func (s *Server) follow(ctx context.Context, topic string, out chan<- update) {
	for u := range s.bus.Updates(topic) { // want `loop in streaming handler Server\.ListItems waits on a channel that outlives the request`
		out <- u
	}
}

// followScoped watches with the ctx it is given.
func (s *Server) followScoped(ctx context.Context, topic string, out chan<- update) {
	for u := range s.bus.Watch(ctx, topic) {
		out <- u
	}
}

// Chat waits for updates until one is done; the loop's exit depends only on what arrives.
func (s *Server) Chat(stream catalogpb.Catalog_ChatServer) error {
	for {
		select { // want `loop in streaming handler Server\.Chat waits in a select on channels that outlive the request`
		case u := <-s.events:
			stream.Send(&catalogpb.ChatMessage{Text: u.id})
			if u.done() {
				return nil
			}
		case <-time.After(30 * time.Second):
			stream.Send(&catalogpb.ChatMessage{Text: "keepalive"})
		}
	}
}

// UploadItems waits for the flusher to reach its batch, and then for a deadline of its own.
func (s *Server) UploadItems(stream catalogpb.Catalog_UploadItemsServer) error {
	var b struct {
		id    int
		items []string
	}
	b.items = append(b.items, "x")
	b.id = len(b.items)
	for n := range s.flushed { // want `loop in streaming handler Server\.UploadItems waits on a channel that outlives the request`
		if n >= b.id {
			break
		}
	}
	start := time.Now()
	for n := range s.flushed { // a clock ends it on its own: silent
		if n >= b.id || time.Since(start) > time.Minute {
			break
		}
	}
	// A literal saves the last position before the loop, and is not called while it waits.
	var last int
	save := func(n int) { last = n }
	save(len(b.items))
	for n := range s.flushed { // want `loop in streaming handler Server\.UploadItems waits on a channel that outlives the request`
		if n >= last {
			break
		}
	}
	for n := range s.flushed { // the literal runs in the loop: last may change on its own
		save(n + 1)
		if n >= last {
			break
		}
	}
	return stream.SendAndClose(&catalogpb.UploadSummary{Count: int32(len(b.items))})
}
