// Package seek holds streaming handlers that restart the request's own work, run in a
// goroutine, on each seek the server relays: a loop every turn of which waits for that work's
// end on a channel the handler made, and leaves on it, ends with the work; one that goes round
// again does not.
package seek

import (
	"context"

	"example.com/gen/catalogpb"
)

type Server struct {
	catalogpb.UnimplementedCatalogServer
	events chan string
}

// ListItems follows the request's own work in a goroutine and restarts it on each seek the server
// relays, acknowledging a seek without looking at the send's error. Every turn waits for the
// work's end on a channel the handler made, and that case leaves the loop: the loop ends with
// the work.
func (s *Server) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	for {
		done := make(chan error, 1)
		go func() { done <- follow(stream.Context()) }()
		select {
		case err := <-done:
			return err
		case id := <-s.events:
			stream.Send(&catalogpb.Item{Id: id}) // silent
		}
	}
}

// Chat waits on the same kind of channel, but its case goes round again: nothing ends the
// loop when the client leaves.
func (s *Server) Chat(stream catalogpb.Catalog_ChatServer) error {
	for {
		done := make(chan error, 1)
		go func() { done <- follow(stream.Context()) }()
		select { // want `loop in streaming handler Server\.Chat waits in a select on channels that outlive the request`
		case <-done:
		case id := <-s.events:
			stream.Send(&catalogpb.ChatMessage{Text: id})
		}
	}
}

func follow(ctx context.Context) error {
	<-ctx.Done()
	return ctx.Err()
}

// UploadItems drains the server's channel in its own body: it never returns after the client
// has gone.
func (s *Server) UploadItems(stream catalogpb.Catalog_UploadItemsServer) error {
	for range s.events { // want `loop in streaming handler Server\.UploadItems waits on a channel that outlives the request`
	}
	return nil
}

// Quitter's streams wait on a channel they made, but only the server ever closes it (its
// shutdown): nothing of the request's own work ends the loop.
type Quitter struct {
	catalogpb.UnimplementedCatalogServer
	events   chan string
	quitters []chan struct{}
}

func (q *Quitter) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	quit := make(chan struct{})
	q.quitters = append(q.quitters, quit)
	for {
		select { // want `loop in streaming handler Quitter\.ListItems waits in a select on channels that outlive the request`
		case <-quit:
			return nil
		case id := <-q.events:
			stream.Send(&catalogpb.Item{Id: id})
		}
	}
}
