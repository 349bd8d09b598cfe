package tabletserver

import (
	"context"
	"sync"
	"time"

	"example.test/sqlproxy/gen/querypb"
	"example.test/sqlproxy/internal/servenv"
)

// HealthStreamer computes the health of the tablet periodically and
// broadcasts it to the StreamHealth subscribers.
type HealthStreamer struct {
	alias    string
	interval time.Duration
	lag      func(ctx context.Context) (int64, error)

	startOnce sync.Once
	cancel    context.CancelFunc

	mu      sync.Mutex
	clients map[chan *querypb.StreamHealthResponse]struct{}
	state   *querypb.StreamHealthResponse
}

// NewHealthStreamer returns a streamer for the tablet alias.
func NewHealthStreamer(alias string, interval time.Duration, lag func(context.Context) (int64, error)) *HealthStreamer {
	return &HealthStreamer{
		alias:    alias,
		interval: interval,
		lag:      lag,
		clients:  map[chan *querypb.StreamHealthResponse]struct{}{},
		state:    &querypb.StreamHealthResponse{TabletAlias: alias, RealtimeStats: &querypb.RealtimeStats{}},
	}
}

// Start starts the health loop, once.
func (hs *HealthStreamer) Start() {
	hs.startOnce.Do(func() {
		ctx, cancel := context.WithCancel(context.Background())
		hs.cancel = cancel
		go hs.run(ctx)
	})
}

func (hs *HealthStreamer) run(ctx context.Context) {
	t := time.NewTicker(hs.interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		cctx, cancel := context.WithTimeout(ctx, hs.interval)
		lag, err := hs.lag(cctx)
		cancel()
		hs.mu.Lock()
		stats := &querypb.RealtimeStats{ReplicationLagSeconds: lag}
		if err != nil {
			stats.HealthError = err.Error()
			servenv.Warningf(ctx, "health check of %s: %v", hs.alias, err)
		}
		hs.state = &querypb.StreamHealthResponse{Target: hs.state.GetTarget(), Serving: hs.state.GetServing(), TabletAlias: hs.alias, RealtimeStats: stats}
		hs.broadcastLocked()
		hs.mu.Unlock()
	}
}

// ChangeState records a new target and serving state and broadcasts it.
func (hs *HealthStreamer) ChangeState(target *querypb.Target, serving bool) {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	hs.state = &querypb.StreamHealthResponse{Target: target, Serving: serving, TabletAlias: hs.alias, RealtimeStats: hs.state.GetRealtimeStats()}
	hs.broadcastLocked()
}

func (hs *HealthStreamer) broadcastLocked() {
	for ch := range hs.clients {
		select {
		case ch <- hs.state:
		default: // a slow client misses an update; the next one supersedes it
		}
	}
}

// Subscribe returns a channel of health updates, primed with the current
// state, and the function that ends the subscription.
func (hs *HealthStreamer) Subscribe() (<-chan *querypb.StreamHealthResponse, func()) {
	ch := make(chan *querypb.StreamHealthResponse, 1)
	hs.mu.Lock()
	hs.clients[ch] = struct{}{}
	ch <- hs.state
	hs.mu.Unlock()
	return ch, func() {
		hs.mu.Lock()
		delete(hs.clients, ch)
		hs.mu.Unlock()
	}
}

// Close stops the loop and ends every subscription.
func (hs *HealthStreamer) Close() {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	if hs.cancel != nil {
		hs.cancel()
	}
	for ch := range hs.clients {
		close(ch)
		delete(hs.clients, ch)
	}
}
