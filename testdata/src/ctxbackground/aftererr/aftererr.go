// Package aftererr cleans up after failed work with a fresh, bounded ctx: the request has
// failed (often because its ctx is done), and what undoes its work must run all the same. A
// bounded root made only on the way out of a failure — the handler returning the error, or a
// goroutine a failed Recv ends — is not reported. A root with no bound there, a bounded root on
// the way to success, and one after a failure the function goes on from are.
package aftererr

import (
	"context"
	"errors"
	"time"

	"example.com/gen/catalogpb"
)

type store struct{}

func (store) Put(ctx context.Context, id string) error    { return ctx.Err() }
func (store) Delete(ctx context.Context, id string) error { return ctx.Err() }

// Server keeps items in a store.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	store store
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if err := s.store.Put(ctx, req.GetId()); err != nil {
		// silent: undo on a fresh budget, the request has failed
		cctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = s.store.Delete(cctx, req.GetId())
		return nil, err
	}
	if err := s.store.Put(ctx, "index/"+req.GetId()); err != nil {
		_ = s.store.Delete(context.Background(), req.GetId()) // want `context.Background\(\) in handler Server.GetItem drops the caller's deadline`
		return nil, err
	}
	wctx, cancel := context.WithTimeout(context.Background(), time.Second) // want `context.WithTimeout\(context.Background\(\), ...\) in handler Server.GetItem replaces the caller's deadline`
	defer cancel()
	if err := s.store.Put(wctx, "audit/"+req.GetId()); err != nil {
		return nil, err
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}

// undo releases what a failed request took, with a root of its own.
func (s *Server) undo(id string) error { // want undo:"drops ctx"
	return s.store.Delete(context.Background(), id)
}

// UploadItems undoes a failed upload through a helper on its way out of the failure: silent.
// Undoing on success is the request's work: reported.
func (s *Server) UploadItems(stream catalogpb.Catalog_UploadItemsServer) error {
	m, err := stream.Recv()
	if err != nil {
		return errors.Join(err, s.undo("upload"))
	}
	if err := s.store.Put(stream.Context(), m.GetId()); err != nil {
		if uerr := s.undo(m.GetId()); uerr != nil {
			return errors.Join(err, uerr)
		}
		return err
	}
	return s.undo("staging/" + m.GetId()) // want `aftererr.Server.undo, called in handler Server.UploadItems, works with context.Background\(\)`
}

func (s *Server) Chat(stream catalogpb.Catalog_ChatServer) error {
	errc := make(chan error, 1)
	go func() {
		for {
			m, err := stream.Recv()
			if err != nil {
				// silent: the failed Recv ends the goroutine; a bounded side call on the way out
				rctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				_ = s.store.Delete(rctx, "session")
				cancel()
				errc <- err
				return
			}
			if err := s.store.Put(stream.Context(), m.GetText()); err != nil {
				// the loop goes on after this failure: reported
				rctx, cancel := context.WithTimeout(context.Background(), time.Second) // want `context.WithTimeout\(context.Background\(\), ...\) in handler Server.Chat replaces the caller's deadline`
				_ = s.store.Delete(rctx, m.GetText())
				cancel()
				continue
			}
		}
	}()
	return <-errc
}

func (s *Server) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	err := s.store.Put(stream.Context(), req.GetCategory())
	if err != nil {
		// the failure is swallowed and the handler returns success: reported
		dctx, cancel := context.WithTimeout(context.Background(), time.Second) // want `context.WithTimeout\(context.Background\(\), ...\) in handler Server.ListItems replaces the caller's deadline`
		defer cancel()
		_ = s.store.Delete(dctx, req.GetCategory())
		return nil
	}
	return errors.New("not implemented")
}
