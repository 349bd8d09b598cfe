// Package tied holds handlers that make a root cancellable and cancel it when the request's ctx
// is done (context.AfterFunc(ctx, cancel), or a goroutine that waits for ctx.Done() and then
// cancels): a log follow that must not carry a short client
// timeout down, but stops when the client goes. Nothing is lost, and nothing is reported — in
// the handler, in a helper it calls, with the cancel registered directly or in a literal. A root
// tied to the server's lifetime instead, or not tied at all, or tied after a copy of it went to
// work untied, is reported.
package tied

import (
	"context"
	"errors"

	"example.com/gen/catalogpb"
)

type logs interface {
	Follow(ctx context.Context, id string) error
}

var errGone = errors.New("client gone")

// Server serves the catalog.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	logs     logs
	lifetime context.Context
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	fctx, cancel := context.WithCancel(context.Background()) // tied to the request: silent
	defer cancel()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	if err := s.logs.Follow(fctx, req.GetId()); err != nil {
		return nil, err
	}
	return &catalogpb.Item{Id: req.GetId()}, s.follow(ctx, req.GetId())
}

// follow ties its root in a literal that cancels with a cause.
func (s *Server) follow(ctx context.Context, id string) error {
	fctx, cancel := context.WithCancelCause(context.TODO())
	defer cancel(nil)
	defer context.AfterFunc(ctx, func() { cancel(errGone) })()
	return s.logs.Follow(fctx, id)
}

func (s *Server) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	fctx, cancel := context.WithCancel(context.Background()) // want `context.Background\(\) in handler Server.ListItems drops the caller's deadline`
	defer cancel()
	context.AfterFunc(s.lifetime, cancel) // the server's lifetime, not the request's
	if err := s.logs.Follow(fctx, "all"); err != nil {
		return err
	}
	return s.untied(stream.Context()) // want `tied.Server.untied, called in handler Server.ListItems, works with context.Background\(\)`
}

// untied makes a root cancellable and never ties it.
func (s *Server) untied(ctx context.Context) error { // want untied:"drops ctx: context.Background\\(\\) at .*/tied.go:61"
	fctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	return s.logs.Follow(fctx, "untied")
}

func (s *Server) UploadItems(stream catalogpb.Catalog_UploadItemsServer) error {
	root := context.Background()      // want `context.Background\(\) in handler Server.UploadItems drops the caller's deadline`
	_ = s.logs.Follow(root, "before") // the root itself goes to work untied
	fctx, cancel := context.WithCancel(root)
	defer cancel()
	context.AfterFunc(stream.Context(), cancel)
	return s.logs.Follow(fctx, "after")
}

func (s *Server) Chat(stream catalogpb.Catalog_ChatServer) error {
	ctx := stream.Context()
	a, cancelA := context.WithCancel(context.Background()) // want `context.Background\(\) in handler Server.Chat drops the caller's deadline`
	defer cancelA()
	b, cancelB := context.WithCancel(ctx)
	context.AfterFunc(ctx, cancelB) // ties another ctx, not a
	context.AfterFunc(ctx, func() { _ = cancelA })
	_ = s.logs.Follow(b, "b")
	return s.logs.Follow(a, "a") // a literal that holds cancelA but never calls it ties nothing
}

// Waiter ties its roots with a goroutine that waits for the request's ctx to be done and then
// cancels: the idiom context.AfterFunc replaced.
type Waiter struct {
	catalogpb.UnimplementedCatalogServer
	logs     logs
	lifetime context.Context
}

func (w *Waiter) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	fctx, cancel := context.WithCancel(context.Background()) // cancelled when ctx is done: silent
	go func() {
		<-ctx.Done()
		cancel()
	}()
	if err := w.logs.Follow(fctx, req.GetId()); err != nil {
		return nil, err
	}
	return &catalogpb.Item{Id: req.GetId()}, w.either(ctx, req.GetId())
}

// either waits for the request or for its follow to end, whichever is first, then cancels.
func (w *Waiter) either(ctx context.Context, id string) error {
	fctx, cancel := context.WithCancelCause(context.TODO())
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		select {
		case <-ctx.Done():
		case <-stop:
		}
		cancel(errGone)
	}()
	return w.logs.Follow(fctx, id)
}

func (w *Waiter) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	ctx := stream.Context()
	fctx, cancel := context.WithCancel(context.Background()) // want `context.Background\(\) in handler Waiter.ListItems drops the caller's deadline`
	go func() {
		<-w.lifetime.Done() // the server's lifetime, not the request's
		cancel()
	}()
	if err := w.logs.Follow(fctx, "all"); err != nil {
		return err
	}
	return w.onlyOnStop(ctx) // want `tied.Waiter.onlyOnStop, called in handler Waiter.ListItems, works with context.TODO\(\)`
}

// onlyOnStop cancels only when its own follow ends: when the request's ctx is done first, the
// goroutine returns without cancelling.
func (w *Waiter) onlyOnStop(ctx context.Context) error { // want onlyOnStop:"drops ctx: context.TODO\\(\\) at .*/tied.go:[0-9]+"
	fctx, cancel := context.WithCancel(context.TODO())
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		select {
		case <-ctx.Done():
			return
		case <-stop:
		}
		cancel()
	}()
	return w.logs.Follow(fctx, "stop")
}
