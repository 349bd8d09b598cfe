// Package drain holds streaming handlers that, once the client has gone, leave a goroutine
// consuming a channel that outlives the request: a drain, doing nothing with what it receives
// so that no sender blocks, is no work for anyone; a loop that does something with it is.
package drain

import (
	"example.com/gen/catalogpb"
)

type Server struct {
	catalogpb.UnimplementedCatalogServer
	events chan string
}

// Chat drains the server's channel once the client has gone.
func (s *Server) Chat(stream catalogpb.Catalog_ChatServer) error {
	for {
		if _, err := stream.Recv(); err != nil {
			go func() {
				for range s.events { // a drain: silent
				}
			}()
			return err
		}
	}
}

// ListItems looks as if it drained, but counts and sends what it receives from the lifelong
// channel: a loop with work in it.
func (s *Server) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	n := 0
	for range s.events { // want `loop in streaming handler Server\.ListItems waits on a channel that outlives the request`
		n++
		stream.Send(&catalogpb.Item{Id: req.GetCategory()})
	}
	return nil
}

// UploadItems receives forever from the lifelong channel, keeping each value: no drain.
func (s *Server) UploadItems(stream catalogpb.Catalog_UploadItemsServer) error {
	var last string
	go func() {
		for v := range s.events { // want `loop in streaming handler Server\.UploadItems waits on a channel that outlives the request`
			last = v
		}
	}()
	_, err := stream.Recv()
	_ = last
	return err
}
