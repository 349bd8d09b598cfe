package telemetry

import (
	"context"
	"sync"
	"time"

	telemetryv1 "example.test/fleet/gen/fleet/telemetry/v1"
)

// Hub fans live positions out to the open StreamPositions calls.
type Hub struct {
	mu     sync.Mutex
	subs   map[string]map[chan *telemetryv1.Position]struct{}
	last   map[string]*telemetryv1.Position
	expiry time.Duration
}

// NewHub returns an empty hub.
func NewHub() *Hub {
	return &Hub{
		subs:   make(map[string]map[chan *telemetryv1.Position]struct{}),
		last:   make(map[string]*telemetryv1.Position),
		expiry: 10 * time.Minute,
	}
}

// Subscribe registers for the positions of the given vehicles. The returned func unsubscribes.
func (h *Hub) Subscribe(vehicleIDs []string) (<-chan *telemetryv1.Position, func()) {
	ch := make(chan *telemetryv1.Position, 64)
	h.mu.Lock()
	for _, id := range vehicleIDs {
		if h.subs[id] == nil {
			h.subs[id] = make(map[chan *telemetryv1.Position]struct{})
		}
		h.subs[id][ch] = struct{}{}
	}
	h.mu.Unlock()
	return ch, func() {
		h.mu.Lock()
		for _, id := range vehicleIDs {
			delete(h.subs[id], ch)
		}
		h.mu.Unlock()
	}
}

// Publish delivers a position to the subscribers of its vehicle, dropping it for slow ones.
func (h *Hub) Publish(p *telemetryv1.Position) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.last[p.GetVehicleId()] = p
	for ch := range h.subs[p.GetVehicleId()] {
		select {
		case ch <- p:
		default:
		}
	}
}

// Last returns the most recent position of a vehicle, if any.
func (h *Hub) Last(vehicleID string) (*telemetryv1.Position, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	p, ok := h.last[vehicleID]
	return p, ok
}

// Run expires stale positions until ctx is done. It is started once by main.
func (h *Hub) Run(ctx context.Context) {
	if ctx == nil {
		ctx = context.Background() // OK
	}
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			h.mu.Lock()
			for id, p := range h.last {
				if now.Sub(p.GetAt().AsTime()) > h.expiry {
					delete(h.last, id)
				}
			}
			h.mu.Unlock()
		}
	}
}
