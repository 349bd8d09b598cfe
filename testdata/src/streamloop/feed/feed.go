// Package feed is a catalog service whose streaming handlers relay events and rows, some of
// them without ever noticing that the client left.
package feed

import (
	"context"
	"database/sql"
	"time"

	"example.com/gen/catalogpb"
)

type event struct{ id string }

type bus interface {
	Subscribe(ctx context.Context, topic string) <-chan event
	Updates(topic string) <-chan event
}

type Server struct {
	catalogpb.UnimplementedCatalogServer
	events chan event
	bus    bus
	db     *sql.DB
}

var broadcast = make(chan event)

// ListItems ranges over the server's event channel and drops Send's error: it runs until the
// server's channel closes, long after the client left.
func (s *Server) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	for ev := range s.events { // want `loop in streaming handler Server\.ListItems waits on a channel that outlives the request, and nothing in it stops when the client leaves; select on stream\.Context\(\)\.Done\(\) too`
		_ = stream.Send(&catalogpb.Item{Id: ev.id})
	}
	return nil
}

// Chat waits in a select on a package channel and a ticker, dropping Send's error.
func (s *Server) Chat(stream catalogpb.Catalog_ChatServer) error {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select { // want `loop in streaming handler Server\.Chat waits in a select on channels that outlive the request`
		case ev := <-broadcast:
			stream.Send(&catalogpb.ChatMessage{Text: ev.id})
		case <-tick.C:
		}
	}
}

// UploadItems polls with a sleep and sends, dropping the error: nothing stops it.
func (s *Server) UploadItems(stream catalogpb.Catalog_UploadItemsServer) error {
	go func() {
		for {
			stream.SendMsg(&catalogpb.UploadSummary{}) // want `loop in streaming handler Server\.UploadItems sends and drops the error of each send, and nothing in it stops when the client leaves; return on the send's error, or check stream\.Context\(\)\.Err\(\)`
			time.Sleep(time.Second)
		}
	}()
	return nil
}

// Watched selects on the stream's Done too: silent.
type Watched struct{ Server }

func (s *Watched) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	for {
		select {
		case <-stream.Context().Done():
			return stream.Context().Err()
		case ev := <-s.events:
			_ = stream.Send(&catalogpb.Item{Id: ev.id})
		}
	}
}

// Checked returns on Send's error: it stops when the client does. Silent.
type Checked struct{ Server }

func (s *Checked) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	for ev := range s.events {
		if err := stream.Send(&catalogpb.Item{Id: ev.id}); err != nil {
			return err
		}
	}
	return nil
}

// Subscribed ranges over a channel the bus closes when the request's ctx ends. Silent.
type Subscribed struct{ Server }

func (s *Subscribed) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	for ev := range s.bus.Subscribe(stream.Context(), req.GetCategory()) {
		_ = stream.Send(&catalogpb.Item{Id: ev.id})
	}
	return nil
}

// Unsubscribed ranges over a channel the bus gives without the ctx: it never closes for the
// request.
type Unsubscribed struct{ Server }

func (s *Unsubscribed) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	for ev := range s.bus.Updates(req.GetCategory()) { // want `loop in streaming handler Unsubscribed\.ListItems waits on a channel that outlives the request`
		stream.Send(&catalogpb.Item{Id: ev.id})
	}
	return nil
}

// Rows walks a cursor to its end, sending each row: it ends on its own. Silent.
type Rows struct{ Server }

func (s *Rows) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	rows, err := s.db.QueryContext(stream.Context(), "SELECT id FROM items")
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		_ = rows.Scan(&id)
		_ = stream.Send(&catalogpb.Item{Id: id})
	}
	return rows.Err()
}

// Slice sends a fixed list: it ends on its own. Silent.
type Slice struct{ Server }

func (s *Slice) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	for _, id := range []string{"a", "b"} {
		_ = stream.Send(&catalogpb.Item{Id: id})
	}
	return nil
}

// Local ranges over a channel it made and hands to a producer: the analysis cannot tell who
// closes it. Silent.
type Local struct{ Server }

func (s *Local) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	ch := make(chan event)
	go s.produce(stream.Context(), ch)
	for ev := range ch {
		_ = stream.Send(&catalogpb.Item{Id: ev.id})
	}
	return nil
}

func (s *Server) produce(ctx context.Context, ch chan<- event) {
	defer close(ch)
	<-ctx.Done()
}

// ErrChecked looks at ctx.Err() each turn. Silent.
type ErrChecked struct{ Server }

func (s *ErrChecked) Chat(stream catalogpb.Catalog_ChatServer) error {
	for {
		if err := stream.Context().Err(); err != nil {
			return err
		}
		ev := <-broadcast
		_ = stream.Send(&catalogpb.ChatMessage{Text: ev.id})
	}
}

// Received reads the client's messages and returns on Recv's error. Silent.
type Received struct{ Server }

func (s *Received) Chat(stream catalogpb.Catalog_ChatServer) error {
	for {
		msg, err := stream.Recv()
		if err != nil {
			return err
		}
		_ = stream.Send(msg)
	}
}

// notAHandler is no streaming scope: silent.
func notAHandler(s *Server) {
	for ev := range s.events {
		_ = ev
	}
}
