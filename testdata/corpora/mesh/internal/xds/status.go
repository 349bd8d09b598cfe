package xds

import (
	"context"
	"sync"
	"time"

	"example.test/mesh/internal/store"
	"example.test/mesh/internal/telemetry"
)

// statusTracker records which nodes are connected. Writes are coalesced: a burst of
// reconnects after a control-plane restart becomes one write per node.
type statusTracker struct {
	store *store.Store
	log   *telemetry.Logger

	mu       sync.Mutex
	pending  map[string]bool
	flushing bool
}

func newStatusTracker(st *store.Store, log *telemetry.Logger) *statusTracker {
	return &statusTracker{store: st, log: log, pending: map[string]bool{}}
}

// Set notes the node's connection state; the store is updated in the background.
func (t *statusTracker) Set(ctx context.Context, node string, connected bool) {
	t.log.Debug(ctx, "node status", "node", node, "connected", connected)
	t.mu.Lock()
	t.pending[node] = connected
	start := !t.flushing
	t.flushing = true
	t.mu.Unlock()
	if start {
		go t.flush(context.Background())
	}
}

func (t *statusTracker) flush(ctx context.Context) {
	time.Sleep(200 * time.Millisecond) // let the burst gather
	t.mu.Lock()
	batch := t.pending
	t.pending = map[string]bool{}
	t.flushing = false
	t.mu.Unlock()
	for node, up := range batch {
		state := "disconnected"
		if up {
			state = "connected"
		}
		wctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		_, err := t.store.Create(wctx, store.Resource{Key: store.Key{Mesh: "system", Type: "NodeStatus", Name: node}, Spec: []byte(state)})
		cancel()
		if err != nil {
			t.log.Warn(ctx, "node status write", "node", node, "err", err)
		}
	}
}
