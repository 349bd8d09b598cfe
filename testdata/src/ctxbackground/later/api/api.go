// Package api serves the catalog and hands work to run after the request: function literals
// sent to workers, queued in a pool, given to a timer or to a helper that starts them on a
// goroutine of its own. Their roots are the jobs' own budgets, not the request's deadline
// lost. Beside them, the same literals run as part of the request.
package api

import (
	"context"
	"database/sql"
	"time"

	"ctxbackground/later/goroutine"

	"example.com/gen/catalogpb"
)

// pool runs the jobs it is given on long-lived workers.
type pool struct{ jobs chan func() }

func (p *pool) submit(f func()) { p.jobs <- f }

// retry runs f until it succeeds: as part of the call.
func retry(n int, f func() error) error {
	var err error
	for i := 0; i < n; i++ {
		if err = f(); err == nil {
			return nil
		}
	}
	return err
}

type Server struct {
	catalogpb.UnimplementedCatalogServer
	db   *sql.DB
	jobs chan func()
	pool *pool
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	id := req.GetId()
	s.jobs <- func() { // a worker runs it after the request
		jctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_, _ = s.db.ExecContext(jctx, "REFRESH MATERIALIZED VIEW search")
	}
	s.pool.submit(func() { // queued in the pool
		_, _ = s.db.ExecContext(context.Background(), "DELETE FROM stale WHERE id = $1", id)
	})
	time.AfterFunc(time.Minute, func() { // the timer's, a minute after the request
		_, _ = s.db.ExecContext(context.Background(), "DELETE FROM hot WHERE id = $1", id)
	})
	goroutine.Go("warm", func() { // a goroutine of the helper's own
		_, _ = s.db.ExecContext(context.Background(), "SELECT warm($1)", id)
		run := func() { _, _ = s.db.ExecContext(context.Background(), "SELECT warm2($1)", id) }
		run() // inside the detached literal: detached too
	})
	return &catalogpb.Item{Id: id}, nil
}

// The same literals run as part of the request: the request's deadline is lost in them.
func (s *Server) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	goroutine.Now("count", func() {
		_, _ = s.db.ExecContext(context.Background(), "SELECT count(*) FROM items") // want `context.Background\(\) in handler Server.ListItems drops the caller's deadline and cancellation`
	})
	_ = retry(3, func() error {
		_, err := s.db.ExecContext(context.Background(), "SELECT 1") // want `context.Background\(\) in handler Server.ListItems drops the caller's deadline and cancellation`
		return err
	})
	func() {
		_, _ = s.db.ExecContext(context.TODO(), "SELECT 2") // want `context.TODO\(\) in handler Server.ListItems drops the caller's deadline and cancellation`
	}()
	step := func() {
		_, _ = s.db.ExecContext(context.Background(), "SELECT 4") // want `context.Background\(\) in handler Server.ListItems drops the caller's deadline and cancellation`
	}
	if req == nil {
		step = func() {}
	}
	step()      // merged, then called: it may run here
	go func() { // a goroutine the handler starts: judged as its own, with the advice for one that must outlive it
		_, _ = s.db.ExecContext(context.Background(), "SELECT 3") // want `context.WithoutCancel\(stream.Context\(\)\) with a timeout if the goroutine must outlive it`
	}()
	return nil
}
