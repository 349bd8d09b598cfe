// Package pump holds streaming handlers that hand what they produce to a goroutine pumping it
// to a slow client, through a buffer. A pump that leaves on a channel the handler closes, or
// sends on, as it returns ends with the request: the handler ends when the client leaves (its
// Recv fails). A pump nobody stops, and a loop of the handler itself waiting for its own
// deferred close, are reported.
package pump

import (
	"context"

	"example.com/gen/catalogpb"
)

type Server struct {
	catalogpb.UnimplementedCatalogServer
	load func(ctx context.Context, category string) ([]*catalogpb.Item, error)
}

// ListItems pumps the items it loads; the pump leaves on done, closed as the handler returns.
func (s *Server) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	out := make(chan *catalogpb.Item, 16)
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select { // silent: it ends with the handler
			case it := <-out:
				stream.Send(it)
			case <-done:
				return
			}
		}
	}()
	items, err := s.load(stream.Context(), req.GetCategory())
	if err != nil {
		return err
	}
	for _, it := range items {
		out <- it
	}
	return nil
}

// onReady runs fn when the subscription is ready.
func onReady(fn func()) { fn() }

// Chat starts its pump from a callback and tells it to stop with a deferred send; the
// goroutine reading the client stops the handler when the client leaves.
func (s *Server) Chat(stream catalogpb.Catalog_ChatServer) error {
	out := make(chan *catalogpb.ChatMessage, 16)
	stop := make(chan bool)
	defer func() {
		stop <- true
	}()
	onReady(func() {
		go func() {
			for {
				select { // silent: it ends with the handler
				case m := <-out:
					stream.Send(m)
				case <-stop:
					return
				}
			}
		}()
	})
	for {
		m, err := stream.Recv()
		if err != nil {
			return err
		}
		out <- m
	}
}

// UploadItems starts a pump that leaves on a channel nobody signals: it outlives the request.
func (s *Server) UploadItems(stream catalogpb.Catalog_UploadItemsServer) error {
	out := make(chan *catalogpb.Item, 16)
	never := make(chan struct{})
	go func() {
		for {
			select {
			case it := <-out:
				stream.SendMsg(it) // want `loop in streaming handler Server\.UploadItems sends and drops the error of each send`
			case <-never:
				return
			}
		}
	}()
	for {
		it, err := stream.Recv()
		if err != nil {
			return err
		}
		out <- it
	}
}

// Mirror pumps in the handler's own body: its deferred close can only run once the loop has
// ended, so it stops nothing.
type Mirror struct {
	catalogpb.UnimplementedCatalogServer
	out chan *catalogpb.Item
}

func (m *Mirror) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	done := make(chan struct{})
	defer close(done)
	for {
		select { // want `loop in streaming handler Mirror\.ListItems waits in a select on channels that outlive the request`
		case it := <-m.out:
			stream.Send(it)
		case <-done:
			return nil
		}
	}
}
