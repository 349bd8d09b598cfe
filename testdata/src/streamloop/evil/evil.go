// Package evil holds loop shapes that must not crash streamloop or fool it.
package evil

import (
	"context"

	"example.com/gen/catalogpb"
)

type Server struct {
	catalogpb.UnimplementedCatalogServer
	events chan string
	subs   map[string]chan string
}

// ListItems: nested loops, a labelled break, a goto, a closure over the receiver.
func (s *Server) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	ctx := stream.Context()
outer:
	for {
		select {
		case <-ctx.Done():
			break outer
		case id := <-s.events:
			for i := 0; i < 3; i++ {
				_ = stream.Send(&catalogpb.Item{Id: id})
			}
		}
	}
	relay := func() {
		for id := range s.events { // want `loop in streaming handler Server\.ListItems waits on a channel that outlives the request`
			stream.Send(&catalogpb.Item{Id: id})
		}
	}
	go relay()
	n := 0
again:
	n++
	if n < 3 {
		goto again
	}
	return nil
}

// Chat: a channel from a map of the server (not followed: silent), an infinite empty loop.
func (s *Server) Chat(stream catalogpb.Catalog_ChatServer) error {
	for msg := range s.subs["chat"] {
		_ = stream.Send(&catalogpb.ChatMessage{Text: msg})
	}
	for {
	}
}

// UploadItems: a loop whose condition is unknown ends on its own as far as the rule can tell.
func (s *Server) UploadItems(stream catalogpb.Catalog_UploadItemsServer) error {
	for s.more(stream.Context()) {
		<-s.events
	}
	return nil
}

func (s *Server) more(ctx context.Context) bool { return ctx.Err() == nil }
