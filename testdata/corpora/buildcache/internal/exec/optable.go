// Package exec schedules actions onto workers.
package exec

import (
	"context"
	"database/sql"
	"sync"
	"time"

	"example.test/buildcache/gen/bcv1"
	"google.golang.org/protobuf/proto"
)

// OpTable tracks operations and expires finished ones.
type OpTable struct {
	db     *sql.DB
	mu     sync.Mutex
	ops    map[string]*bcv1.Operation
	ctx    context.Context
	cancel context.CancelFunc
}

// NewOpTable starts the expiry loop.
func NewOpTable(db *sql.DB) *OpTable {
	ctx, cancel := context.WithCancel(context.Background()) // OK: ctxbackground — constructor: the table's own lifetime
	t := &OpTable{db: db, ops: map[string]*bcv1.Operation{}, ctx: ctx, cancel: cancel}
	go t.expireLoop(ctx)
	return t
}

func (t *OpTable) expireLoop(ctx context.Context) {
	tick := time.NewTicker(time.Minute)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			_, _ = t.db.ExecContext(ctx, `DELETE FROM ops WHERE done AND finished < now() - interval '1 hour'`)
		}
	}
}

// Context is the table's lifetime.
func (t *OpTable) Context() context.Context { return t.ctx }

// Stop ends the expiry loop.
func (t *OpTable) Stop() { t.cancel() }

// Lookup loads an operation from the database.
func (t *OpTable) Lookup(ctx context.Context, name string) (*bcv1.Operation, error) {
	var blob []byte
	if err := t.db.QueryRowContext(ctx, `SELECT op FROM ops WHERE name = $1`, name).Scan(&blob); err != nil {
		return nil, err
	}
	op := &bcv1.Operation{}
	return op, proto.Unmarshal(blob, op)
}

// Persist stores op.
func (t *OpTable) Persist(ctx context.Context, op *bcv1.Operation) error {
	t.mu.Lock()
	t.ops[op.GetName()] = op
	t.mu.Unlock()
	blob, _ := proto.Marshal(op)
	_, err := t.db.ExecContext(ctx, `INSERT INTO ops(name, op) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET op = $2`, op.GetName(), blob)
	return err
}

// Get returns the in-memory copy of an operation.
func (t *OpTable) Get(name string) *bcv1.Operation {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.ops[name]
}

// Complete marks an operation done.
func (t *OpTable) Complete(ctx context.Context, name string, res *bcv1.ActionResult) error {
	op := &bcv1.Operation{Name: name, Done: true, Result: res, Stage: "COMPLETED"}
	return t.Persist(ctx, op)
}

// DrainBot requeues the operations a bot holds.
func (t *OpTable) DrainBot(ctx context.Context, bot string) error {
	_, err := t.db.ExecContext(ctx, `UPDATE ops SET stage = 'QUEUED' WHERE bot = $1`, bot)
	return err
}

// Count returns the number of operations in memory.
func (t *OpTable) Count(ctx context.Context) int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return int64(len(t.ops))
}

// Watch streams updates of name until ctx ends; the polling runs on its own goroutine.
func (t *OpTable) Watch(ctx context.Context, name string) <-chan *bcv1.Operation {
	ch := make(chan *bcv1.Operation, 1)
	go func() {
		defer close(ch)
		tick := time.NewTicker(500 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			op, err := t.Lookup(ctx, name)
			if err != nil {
				continue
			}
			ch <- op
			if op.GetDone() {
				return
			}
		}
	}()
	return ch
}
