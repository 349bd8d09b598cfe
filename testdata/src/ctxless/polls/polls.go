// Package polls holds request scopes that sleep in loops whose turns make a call with the
// request's ctx, or its stream: when the call's failure leaves the loop, a cancelled request
// ends the loop at its next turn and the sleep is not reported; when the loop goes round again
// on failure (a retry), when the call is given another ctx, or when its callee never looks at
// its ctx, it is.
package polls

import (
	"context"
	"errors"
	"time"

	"example.com/gen/catalogpb"
)

type store interface {
	Get(ctx context.Context, id string) (*catalogpb.Item, error)
}

// memory is an in-memory double: it never looks at its ctx, so a cancelled request does not
// make it fail.
type memory struct{ items map[string]*catalogpb.Item }

func (m *memory) Lookup(ctx context.Context, id string) (*catalogpb.Item, error) {
	if it, ok := m.items[id]; ok {
		return it, nil
	}
	return nil, errors.New("absent")
}

type Server struct {
	catalogpb.UnimplementedCatalogServer
	db  store
	mem *memory
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	// A poll: every turn asks the store with the request's ctx and returns its error.
	for {
		item, err := s.db.Get(ctx, req.GetId())
		if err != nil {
			return nil, err
		}
		if item.GetName() != "" {
			break
		}
		time.Sleep(10 * time.Millisecond) // the Get of the next turn fails once ctx is done: silent
	}

	// The same poll written the other way round: the error leaves the loop when err == nil is false.
	for i := 0; i < 5; i++ {
		time.Sleep(time.Millisecond) // silent
		item, err := s.db.Get(ctx, req.GetId())
		if err == nil {
			if item.GetName() != "" {
				return item, nil
			}
			continue
		}
		return nil, err
	}

	// A retry: a failure goes round again and sleeps.
	for attempt := 0; attempt < 3; attempt++ {
		item, err := s.db.Get(ctx, req.GetId())
		if err == nil {
			return item, nil
		}
		time.Sleep(50 * time.Millisecond) // want `time.Sleep in handler Server.GetItem keeps the loop sleeping`
	}

	// The call is given a root, not the request's ctx.
	for {
		item, err := s.db.Get(context.Background(), req.GetId())
		if err != nil {
			return nil, err
		}
		if item.GetName() != "" {
			break
		}
		time.Sleep(10 * time.Millisecond) // want `time.Sleep in handler Server.GetItem keeps the loop sleeping`
	}

	// The callee never looks at its ctx: it does not fail when the request is cancelled.
	for {
		if _, err := s.mem.Lookup(ctx, req.GetId()); err != nil {
			return nil, err
		}
		time.Sleep(10 * time.Millisecond) // want `time.Sleep in handler Server.GetItem keeps the loop sleeping`
	}
}

// ListItems tails: each pass sends to the stream, whose Send fails once the client has gone,
// and the failure ends the loop.
func (s *Server) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	for {
		if err := sendPass(stream, req.GetCategory()); err != nil {
			return err
		}
		time.Sleep(2 * time.Second) // silent
	}
}

// Watch sends too, but a failed pass is only counted: the loop never ends.
//
//deadlinelint:scope
func (s *Server) Watch(ctx context.Context, stream catalogpb.Catalog_ListItemsServer) {
	failures := 0
	for {
		if err := sendPass(stream, "all"); err != nil {
			failures++
		}
		time.Sleep(time.Second) // want `time.Sleep in request scope Server.Watch keeps the loop sleeping`
	}
}

func sendPass(stream catalogpb.Catalog_ListItemsServer, category string) error {
	return stream.Send(&catalogpb.Item{Name: category})
}
