package manager

import (
	"context"
	"math/rand/v2"
	"time"

	"example.test/operator/internal/retry"
	"example.test/operator/internal/store"
)

// sweepLoop runs the periodic sweepers until ctx (leadership) ends.
func (m *Manager) sweepLoop(ctx context.Context) {
	// spread the sweepers of restarted replicas
	time.Sleep(time.Duration(rand.Int64N(int64(m.cfg.SweepInterval/4) + 1))) // OK: background sweeper
	t := time.NewTicker(m.cfg.SweepInterval)
	defer t.Stop()
	for {
		m.sweepStaleNodes()
		m.pruneEvents()
		if n := m.ops.Prune(time.Now()); n > 0 {
			m.log.Debug("pruned operations", "count", n)
		}
		m.prepull(ctx)
		for node, err := range m.probeAgents() {
			if err != nil {
				m.log.Warn("agent probe failed", "node", node, "err", err)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// sweepStaleNodes forgets nodes that stopped heartbeating long ago.
func (m *Manager) sweepStaleNodes() {
	ctx, cancel := context.WithTimeout(m.ctx, time.Minute) // OK: the manager's own ctx in its own goroutine
	defer cancel()
	nodes, err := m.store.ListNodes(ctx) // OK
	if err != nil {
		m.log.Warn("sweep nodes", "err", err)
		return
	}
	for _, n := range nodes {
		if n.LastHeartbeat.IsZero() || time.Since(n.LastHeartbeat) < m.cfg.StaleNodeAfter {
			continue
		}
		if err := m.store.DeleteNode(ctx, n.Name); err != nil { // OK
			m.log.Warn("delete stale node", "node", n.Name, "err", err)
			continue
		}
		m.agents.Forget(n.Name)
		_ = m.store.AppendAudit(ctx, store.AuditEntry{ // OK: sweeper, not a request scope
			Actor: "controller", Method: "sweepStaleNodes", Target: n.Name,
			Detail: "no heartbeat since " + n.LastHeartbeat.Format(time.RFC3339),
		})
	}
}

// pruneEvents enforces the event retention.
func (m *Manager) pruneEvents() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // OK: periodic sweeper
	defer cancel()
	n, err := m.store.PruneEvents(ctx, time.Now().Add(-m.cfg.EventRetention)) // OK
	if err != nil {
		m.log.Warn("prune events", "err", err)
		return
	}
	if n > 0 {
		m.log.Info("pruned events", "count", n)
	}
}

// prepull keeps the configured base images warm on every ready node.
func (m *Manager) prepull(ctx context.Context) {
	for _, n := range m.nodesMatching(nil) {
		c, err := m.agents.For(n.Name, n.Address)
		if err != nil {
			continue
		}
		for i, img := range m.cfg.PrepullImages {
			pctx, cancel := context.WithTimeout(ctx, 10*time.Minute) // OK: sweeper budget
			_, err := c.PullImage(pctx, img)                         // OK: bounded
			cancel()
			if err != nil {
				m.log.Warn("prepull", "node", n.Name, "image", img, "err", err)
				retry.Pause(i) // OK: helper, not a request scope
			}
		}
		if ctx.Err() != nil {
			return
		}
	}
}

// probeAgents runs a no-op command on every node to detect wedged agents
// whose status endpoint still answers.
func (m *Manager) probeAgents() map[string]error {
	out := make(map[string]error)
	for _, n := range m.nodes.List() {
		c, err := m.agents.For(n.Name, n.Address)
		if err != nil {
			out[n.Name] = err
			continue
		}
		_, out[n.Name] = c.Exec(m.ctx, []string{"true"}) // OK: not a request scope
	}
	return out
}
