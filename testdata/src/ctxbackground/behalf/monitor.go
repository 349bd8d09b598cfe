package behalf

import (
	"context"
	"database/sql"

	"example.com/gen/catalogpb"
)

// Monitor is a gRPC service that starts an exit monitor per item: the monitor must outlive
// the request that started it.
type Monitor struct {
	catalogpb.UnimplementedCatalogServer
	db *sql.DB
}

// watchExit starts the monitor; its ctx is the monitor's lifetime.
func (m *Monitor) watchExit(ctx context.Context, id string, exited <-chan struct{}) {
	go func() {
		<-exited
		_, _ = m.db.ExecContext(ctx, "UPDATE items SET state = 'exited' WHERE id = $1", id)
	}()
}

// follower keeps its lifetime's cancel for Stop.
type follower struct {
	ctx    context.Context
	cancel context.CancelFunc
}

// start makes the follower's lifetime from ctx: the ctx is used for nothing else.
func (f *follower) start(ctx context.Context) {
	f.ctx, f.cancel = context.WithCancel(ctx)
}

// startAndLoad also loads with the ctx: work for the request.
func (f *follower) startAndLoad(ctx context.Context, db *sql.DB) {
	f.ctx, f.cancel = context.WithCancel(ctx)
	_, _ = db.ExecContext(ctx, "SELECT 1")
}

// Stop ends the follower.
func (f *follower) Stop() { f.cancel() }

// record writes at once: work for the request.
func (m *Monitor) record(ctx context.Context, id string) {
	_, _ = m.db.ExecContext(ctx, "INSERT INTO events VALUES ($1)", id)
	go func() { _, _ = m.db.ExecContext(ctx, "UPDATE items SET seen = true WHERE id = $1", id) }()
}

func (m *Monitor) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	exited := make(chan struct{})
	m.watchExit(context.Background(), req.GetId(), exited) // a lifetime of its own: silent
	m.record(context.Background(), req.GetId())            // want `context.Background\(\) in handler Monitor.GetItem drops the caller's deadline`
	f := &follower{}
	f.start(context.Background()) // the follower's own lifetime: silent
	defer f.Stop()
	f.startAndLoad(context.Background(), m.db) // want `context.Background\(\) in handler Monitor.GetItem drops the caller's deadline`
	return &catalogpb.Item{Id: req.GetId()}, nil
}
