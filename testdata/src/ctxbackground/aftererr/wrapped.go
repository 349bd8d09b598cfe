package aftererr

import (
	"context"
	"fmt"
	"time"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

type coded struct {
	code codes.Code
	err  error
}

func (c *coded) Error() string { return c.err.Error() }

func codeOf(err error) codes.Code { return codes.Internal }

// Wrapped returns a failure's error translated or wrapped more than once on its way out, or an
// error of its own that cannot be nil: the undo before it is cleanup all the same. A loop that
// goes on to its next turn after the failure is no way out of it, whatever error the function
// returns once the loop is over.
type Wrapped struct {
	catalogpb.UnimplementedCatalogServer
	store store
}

func (w *Wrapped) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if err := w.store.Put(ctx, req.GetId()); err != nil {
		cctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // silent: the error goes back wrapped twice
		defer cancel()
		_ = w.store.Delete(cctx, req.GetId())
		return nil, &coded{code: codeOf(err), err: fmt.Errorf("put %s: %w", req.GetId(), err)}
	}
	if err := w.store.Put(ctx, "index/"+req.GetId()); err != nil {
		cctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // silent: its text goes back in a status
		defer cancel()
		_ = w.store.Delete(cctx, req.GetId())
		return nil, status.Error(codes.Internal, err.Error())
	}
	if err := w.store.Put(ctx, "audit/"+req.GetId()); err != nil {
		cctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // silent: a status of its own, the way out of the failure all the same
		defer cancel()
		_ = w.store.Delete(cctx, req.GetId())
		return nil, status.Error(codes.Internal, "audit failed")
	}
	if err := w.store.Put(ctx, "stats/"+req.GetId()); err != nil {
		cctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // silent: the request's own end, asked for first
		defer cancel()
		_ = w.store.Delete(cctx, req.GetId())
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, errStats
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}

var errStats = status.Error(codes.Unavailable, "stats unavailable")

func (w *Wrapped) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	for _, id := range []string{"a", "b"} {
		if err := w.store.Put(stream.Context(), id); err != nil {
			cctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // want `context.WithTimeout\(context.Background\(\), ...\) in handler Wrapped.ListItems replaces the caller's deadline`
			_ = w.store.Delete(cctx, id)
			cancel()
			continue
		}
	}
	return errStats
}

type sized struct{ n int }

func (s *sized) Error() string { return "failed" }

// withCode gives an error a code: the outermost call, trusted with the error it is given.
func withCode(code codes.Code, err error) error { return &coded{code: code, err: err} }

// handle may swallow the failure: a function of the module, trusted only as the outermost call.
func handle(err error) error {
	if err == context.Canceled {
		return nil
	}
	return err
}

// Loose returns errors that only look made of the failure: one a function of the module makes
// inside an error constructor (it may return nil), one holding only the length of the text.
// Reported.
type Loose struct {
	catalogpb.UnimplementedCatalogServer
	store store
}

func (l *Loose) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if err := l.store.Put(ctx, req.GetId()); err != nil {
		cctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // want `context.WithTimeout\(context.Background\(\), ...\) in handler Loose.GetItem replaces the caller's deadline`
		defer cancel()
		_ = l.store.Delete(cctx, req.GetId())
		return nil, withCode(codes.Internal, handle(err))
	}
	if err := l.store.Put(ctx, "index/"+req.GetId()); err != nil {
		cctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // want `context.WithTimeout\(context.Background\(\), ...\) in handler Loose.GetItem replaces the caller's deadline`
		defer cancel()
		_ = l.store.Delete(cctx, req.GetId())
		return nil, &sized{n: len(err.Error())}
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}
