// Package history owns workflow histories, partitioned into shards.
package history

import (
	"context"
	"sync"
	"time"

	"example.test/workflow/internal/obs"
	"example.test/workflow/internal/persistence"
)

// Shard is one history shard owned by this host.
type Shard struct {
	ID      int32
	rangeID int64
	ctx     context.Context
	cancel  context.CancelFunc
	ready   chan struct{}
}

// ShardController acquires shards lazily, on first request, and keeps them.
type ShardController struct {
	mu     sync.Mutex
	shards map[int32]*Shard
	store  *persistence.Store
	host   string
}

// NewShardController makes a controller.
func NewShardController(store *persistence.Store, host string) *ShardController {
	return &ShardController{shards: map[int32]*Shard{}, store: store, host: host}
}

// GetShard returns the shard, starting its acquisition on first use. The
// acquisition belongs to the shard, not to the request that triggered it.
func (c *ShardController) GetShard(ctx context.Context, id int32) (*Shard, error) {
	c.mu.Lock()
	sh, ok := c.shards[id]
	if !ok {
		sctx, cancel := context.WithCancel(context.Background())
		sh = &Shard{ID: id, ctx: sctx, cancel: cancel, ready: make(chan struct{})}
		c.shards[id] = sh
		go c.acquire(sh)
	}
	c.mu.Unlock()
	select {
	case <-sh.ready:
		return sh, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (c *ShardController) acquire(sh *Shard) {
	for {
		rid, err := c.store.AcquireShard(sh.ctx, sh.ID, c.host)
		if err == nil {
			sh.rangeID = rid
			close(sh.ready)
			return
		}
		obs.L.Error(sh.ctx, "acquire shard", "shard", sh.ID, "err", err)
		select {
		case <-sh.ctx.Done():
			return
		case <-time.After(time.Second):
		}
	}
}

// CloseShard releases a shard. It is called on ownership loss and by admins.
func (c *ShardController) CloseShard(ctx context.Context, id int32) error {
	c.mu.Lock()
	sh, ok := c.shards[id]
	delete(c.shards, id)
	c.mu.Unlock()
	if !ok {
		return nil
	}
	sh.cancel()
	return c.store.ReleaseShard(ctx, id, sh.rangeID)
}

// Stop releases every shard with a bounded budget of its own.
func (c *ShardController) Stop() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // OK: ctxbackground — Stop is no request scope
	defer cancel()
	c.mu.Lock()
	ids := make([]int32, 0, len(c.shards))
	for id := range c.shards {
		ids = append(ids, id)
	}
	c.mu.Unlock()
	for _, id := range ids {
		_ = c.CloseShard(ctx, id)
	}
}
