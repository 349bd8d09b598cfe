package tabletserver

import (
	"context"
	"fmt"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/sqlproxy/internal/servenv"
)

var errTxPoolFull = status.Error(codes.ResourceExhausted, "transaction pool full")

// TxEngine keeps the open transactions of the tablet.
type TxEngine struct {
	pool            *ConnPool
	capacity        int
	rollbackTimeout time.Duration

	mu     sync.Mutex
	active map[int64]*PooledConn
	nextID int64
}

// NewTxEngine returns a transaction engine of at most capacity open
// transactions on pool.
func NewTxEngine(pool *ConnPool, capacity int, rollbackTimeout time.Duration) *TxEngine {
	return &TxEngine{pool: pool, capacity: capacity, rollbackTimeout: rollbackTimeout, active: map[int64]*PooledConn{}}
}

// Begin starts a transaction.
func (te *TxEngine) Begin(ctx context.Context) (int64, error) {
	te.mu.Lock()
	full := len(te.active) >= te.capacity
	te.mu.Unlock()
	if full {
		return 0, errTxPoolFull
	}
	conn, err := te.pool.GetContext(ctx)
	if err != nil {
		return 0, err
	}
	if err := conn.ExecNoResult(ctx, "begin"); err != nil {
		conn.Recycle()
		return 0, err
	}
	te.mu.Lock()
	te.nextID++
	id := te.nextID
	te.active[id] = conn
	te.mu.Unlock()
	return id, nil
}

// Get returns the connection of transaction txID.
func (te *TxEngine) Get(txID int64) (*PooledConn, error) {
	c, ok := te.Lookup(txID)
	if !ok {
		return nil, status.Errorf(codes.NotFound, "transaction %d not found", txID)
	}
	return c, nil
}

// Lookup returns the connection of transaction txID, if it is open.
func (te *TxEngine) Lookup(txID int64) (*PooledConn, bool) {
	te.mu.Lock()
	defer te.mu.Unlock()
	c, ok := te.active[txID]
	return c, ok
}

// LookupContext is Lookup, logging a miss with the caller's trace id.
func (te *TxEngine) LookupContext(ctx context.Context, txID int64) (*PooledConn, bool) {
	c, ok := te.Lookup(txID)
	if !ok {
		servenv.Infof(ctx, "transaction %d is not open", txID)
	}
	return c, ok
}

func (te *TxEngine) take(txID int64) (*PooledConn, error) {
	te.mu.Lock()
	defer te.mu.Unlock()
	c, ok := te.active[txID]
	if !ok {
		return nil, status.Errorf(codes.NotFound, "transaction %d not found", txID)
	}
	delete(te.active, txID)
	return c, nil
}

// Commit commits transaction txID. When the commit fails the transaction is
// rolled back on a bounded context of its own, since the caller's may be
// what ran out, and the connection goes back to the pool clean.
func (te *TxEngine) Commit(ctx context.Context, txID int64) error {
	conn, err := te.take(txID)
	if err != nil {
		return err
	}
	defer conn.Recycle()
	if err := conn.ExecNoResult(ctx, "commit"); err != nil {
		rctx, cancel := context.WithTimeout(context.Background(), te.rollbackTimeout)
		defer cancel()
		_ = conn.ExecNoResult(rctx, "rollback")
		return fmt.Errorf("commit failed, rolled back: %w", err)
	}
	return nil
}

// Rollback rolls transaction txID back.
func (te *TxEngine) Rollback(ctx context.Context, txID int64) error {
	conn, err := te.take(txID)
	if err != nil {
		return err
	}
	defer conn.Recycle()
	return conn.ExecNoResult(ctx, "rollback")
}

// WaitForEmpty waits until no transaction is open, or ctx is done.
func (te *TxEngine) WaitForEmpty(ctx context.Context) error {
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	for {
		te.mu.Lock()
		n := len(te.active)
		te.mu.Unlock()
		if n == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}

// Shutdown waits for open transactions until ctx is done, then rolls the
// remaining ones back.
func (te *TxEngine) Shutdown(ctx context.Context) {
	_ = te.WaitForEmpty(ctx)
	te.mu.Lock()
	ids := make([]int64, 0, len(te.active))
	for id := range te.active {
		ids = append(ids, id)
	}
	te.mu.Unlock()
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), te.rollbackTimeout) // OK: detach — Shutdown's ctx is the component's own (Close), not a request's, and it is bounded
	defer cancel()
	for _, id := range ids {
		_ = te.Rollback(rctx, id)
	}
}
