package manager

import (
	"context"
	"errors"
	"fmt"
	"time"

	agentv1 "example.test/operator/gen/agent/v1"
	"example.test/operator/internal/store"
	"example.test/operator/internal/workqueue"
)

// maxRetries is how often an item is re-queued before it is dropped until
// the next resync.
const maxRetries = 8

// runWorker processes keys from q until the queue shuts down. Every key gets
// its own budget derived from the leader ctx.
func (m *Manager) runWorker(ctx context.Context, kind string, q *workqueue.Queue[string], sync func(context.Context, string) error) {
	for {
		key, shutdown := q.Get()
		if shutdown {
			return
		}
		ictx, cancel := context.WithTimeout(ctx, m.cfg.SyncTimeout) // OK: per-item budget in a worker
		err := sync(ictx, key)                                      // OK
		cancel()
		q.Done(key)
		switch {
		case err == nil:
			q.Forget(key)
		case q.Retries(key) < maxRetries:
			m.log.Warn("sync failed, retrying", "kind", kind, "key", key, "err", err)
			q.AddRateLimited(key)
		default:
			m.log.Error("sync failed, giving up until resync", "kind", kind, "key", key, "err", err)
			q.Forget(key)
		}
	}
}

// syncNode reconciles the observed state of one node. Each node key is
// handled as a request of its own: it must finish within the item budget.
//
//deadlinelint:scope
func (m *Manager) syncNode(ctx context.Context, name string) error {
	n, ok := m.nodes.Get(name)
	if !ok {
		m.agents.Forget(name)
		return nil
	}
	c, err := m.agents.For(n.Name, n.Address)
	if err != nil {
		return err
	}

	st, err := c.Status(ctx) // OK: item ctx (the wrapper adds its own timeout)
	phase, heartbeat := "Ready", time.Now()
	if err != nil || !st.GetReady() {
		phase, heartbeat = "NotReady", n.LastHeartbeat
	}
	if n.Unschedulable && phase == "Ready" && len(m.workloadsOn(n.Name)) == 0 {
		phase = "Draining"
	}
	if phase == "NotReady" && n.Phase == "Ready" {
		// give a flapping agent a moment before declaring the node gone
		time.Sleep(m.cfg.NodeSettle)                                   // OK: time.Sleep: a single deliberate settle delay, in no loop (ctxless reports a sleep only in a loop that can turn without checking a ctx; precision issue)
		if st2, err2 := c.Status(ctx); err2 == nil && st2.GetReady() { // OK
			st, phase, heartbeat = st2, "Ready", time.Now()
		}
	}

	if err := m.store.UpdateNodeStatus(context.Background(), n.Name, phase, heartbeat); err != nil { // BUG: ctxbackground
		return fmt.Errorf("node %s: update status: %w", n.Name, err)
	}

	if phase != n.Phase {
		ev := store.Event{Kind: "Node", Object: n.Name, Reason: "Node" + phase,
			Message: fmt.Sprintf("node %s is %s (was %s)", n.Name, phase, n.Phase)}
		// transitions must reach the event log even when this item runs out of time
		go m.store.RecordEvent(context.WithoutCancel(ctx), ev)
		// ^BUG: detach
	}

	if phase == "NotReady" && time.Since(n.LastHeartbeat) > m.cfg.NodeGracePeriod {
		evicted := m.workloadsOn(n.Name)
		for _, w := range evicted {
			m.workloadQueue.Add(w)
		}
		if len(evicted) > 0 {
			err := m.store.RecordEvent(m.ctx, store.Event{Kind: "Node", Object: n.Name, Reason: "Evicting", // BUG: ctxflow
				Message: fmt.Sprintf("rescheduling %d workloads", len(evicted))})
			if err != nil {
				m.log.Warn("record event", "node", n.Name, "err", err)
			}
		}
	}

	// restart managed containers that exited on their own
	for _, cs := range st.GetContainers() {
		if cs.GetRunning() || cs.GetWorkload() == "" {
			continue
		}
		err := m.backoff.RetryContext(ctx, func(ctx context.Context) error { // OK: ctx-aware retry
			_, err := c.RestartContext(ctx, cs.GetId()) // OK
			return err
		})
		if err != nil {
			m.log.Warn("restart exited container", "node", n.Name, "container", cs.GetId(), "err", err)
		}
	}
	return nil
}

// syncWorkload converges the replicas of one workload onto the nodes.
func (m *Manager) syncWorkload(ctx context.Context, name string) error {
	w, ok := m.workloads.Get(name)
	if !ok || w.Deleted {
		return m.teardown(ctx, name)
	}
	current := m.Placements(name)

	// drop replicas whose node went away
	live := current[:0]
	for _, p := range current {
		if n, ok := m.nodes.Get(p.Node); ok && n.Phase != "NotReady" {
			live = append(live, p)
		}
	}
	current = live

	// scale up
	for ord := len(current); ord < int(w.Replicas); ord++ {
		n := m.pickNode(w, current)
		if n == nil {
			return fmt.Errorf("workload %s: no schedulable node for replica %d", name, ord)
		}
		c, err := m.agents.For(n.Name, n.Address)
		if err != nil {
			return err
		}
		if _, err := c.PullImage(ctx, w.Image); err != nil { // OK: item ctx carries the worker's deadline
			return err
		}
		var cs *agentv1.ContainerStatus
		err = m.backoff.Retry(func() error { // OK: worker, not a request scope
			var err error
			cs, err = c.StartContainer(ctx, &agentv1.StartContainerRequest{ // OK
				Workload: w.Name, Image: w.Image, Args: w.Args, Ordinal: int32(ord),
			})
			return err
		})
		if err != nil {
			return fmt.Errorf("workload %s: start replica %d on %s: %w", name, ord, n.Name, err)
		}
		current = append(current, Placement{Workload: name, Ordinal: ord, Node: n.Name, Address: n.Address, ContainerID: cs.GetId(), Running: cs.GetRunning()})
		m.setPlacements(name, current)
		time.Sleep(m.cfg.RestartStagger) // OK: worker, not a request scope
	}

	// scale down, highest ordinal first
	for len(current) > int(w.Replicas) {
		p := current[len(current)-1]
		c, err := m.agents.For(p.Node, p.Address)
		if err != nil {
			return err
		}
		if _, err := c.StopContainer(ctx, p.ContainerID, m.cfg.DefaultDrainGrace); err != nil { // OK: not a request scope
			return err
		}
		current = current[:len(current)-1]
		m.setPlacements(name, current)
	}

	// restart replicas that are not running
	ready := 0
	for i, p := range current {
		if p.Running {
			ready++
			continue
		}
		c, err := m.agents.For(p.Node, p.Address)
		if err != nil {
			continue
		}
		if st, err := c.Restart(p.ContainerID); err == nil && st.GetRunning() { // OK: not a request scope
			current[i].Running = true
			ready++
		}
	}
	m.setPlacements(name, current)

	// status is written even when this item ran out of time
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // OK: not a request scope
	defer cancel()
	if err := m.store.UpdateWorkloadStatus(sctx, name, int32(ready)); err != nil { // OK
		return err
	}
	if ready == int(w.Replicas) && w.ReadyReplicas != int32(ready) {
		_ = m.store.RecordEvent(m.ctx, store.Event{Kind: "Workload", Object: name, Reason: "Available", // OK: not a request scope
			Message: fmt.Sprintf("%d/%d replicas ready", ready, w.Replicas)})
	}
	return nil
}

// teardown stops every replica of a deleted workload.
func (m *Manager) teardown(ctx context.Context, name string) error {
	var errs []error
	for _, p := range m.Placements(name) {
		c, err := m.agents.For(p.Node, p.Address)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if _, err := c.StopContainer(ctx, p.ContainerID, m.cfg.DefaultDrainGrace); err != nil { // OK
			errs = append(errs, err)
		}
	}
	if len(errs) == 0 {
		m.setPlacements(name, nil)
	}
	return errors.Join(errs...)
}
