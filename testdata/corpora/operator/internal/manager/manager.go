// Package manager is the control plane: the node and workload controllers,
// their work queues and sweepers, and the ClusterService API in front of them.
package manager

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"time"

	"example.test/operator/internal/informer"
	"example.test/operator/internal/nodeagent"
	"example.test/operator/internal/ops"
	"example.test/operator/internal/retry"
	"example.test/operator/internal/store"
	"example.test/operator/internal/workqueue"
)

// Config tunes the controllers.
type Config struct {
	Workers           int
	SyncTimeout       time.Duration // budget of one work item
	ResyncPeriod      time.Duration
	SweepInterval     time.Duration
	NodeGracePeriod   time.Duration // NotReady for this long: reschedule its workloads
	NodeSettle        time.Duration // wait before declaring a flapping node NotReady
	StaleNodeAfter    time.Duration // no heartbeat for this long: forget the node
	EventRetention    time.Duration
	OperationTTL      time.Duration
	DefaultDrainGrace time.Duration
	RestartStagger    time.Duration
	PrepullImages     []string
}

// Placement is one replica of a workload on a node.
type Placement struct {
	Workload    string
	Ordinal     int
	Node        string
	Address     string
	ContainerID string
	Running     bool
}

// Manager owns the controllers. Start must be called once before the API
// serves; RunControllers runs while this replica is the leader.
type Manager struct {
	cfg     Config
	store   *store.Store
	agents  *nodeagent.Pool
	log     *slog.Logger
	backoff retry.Backoff

	nodes         *informer.Informer[*store.Node]
	workloads     *informer.Informer[*store.Workload]
	nodeQueue     *workqueue.Queue[string]
	workloadQueue *workqueue.Queue[string]
	ops           *ops.Tracker

	ctx    context.Context
	cancel context.CancelFunc

	mu         sync.Mutex
	placements map[string][]Placement
}

// opsCtx bounds the bookkeeping of finished operations; Stop cancels it.
var opsCtx, stopOps = context.WithCancel(context.Background()) // OK: package initialisation, not a request

// New wires the controllers; nothing runs until Start.
func New(cfg Config, st *store.Store, agents *nodeagent.Pool, log *slog.Logger) *Manager {
	if cfg.Workers <= 0 {
		cfg.Workers = 4
	}
	m := &Manager{
		cfg:           cfg,
		store:         st,
		agents:        agents,
		log:           log,
		backoff:       retry.Default,
		nodeQueue:     workqueue.New[string](200*time.Millisecond, time.Minute),
		workloadQueue: workqueue.New[string](200*time.Millisecond, time.Minute),
		placements:    make(map[string][]Placement),
		ctx:           context.Background(), // OK: constructor default until Start
	}
	m.nodes = informer.New("nodes", st.ListNodes, func(n *store.Node) string { return n.Name }, cfg.ResyncPeriod, log)
	m.workloads = informer.New("workloads", st.ListWorkloads, func(w *store.Workload) string { return w.Name }, cfg.ResyncPeriod, log)
	m.nodes.AddHandler(func(ev informer.Event[*store.Node]) { m.nodeQueue.Add(ev.Key) })
	m.workloads.AddHandler(func(ev informer.Event[*store.Workload]) { m.workloadQueue.Add(ev.Key) })
	m.ops = ops.NewTracker(cfg.OperationTTL, func(op ops.Operation) {
		ctx, cancel := context.WithTimeout(opsCtx, 5*time.Second) // OK: tracker callback, not a request
		defer cancel()
		if err := m.store.MarkOperation(ctx, op.ID, op.State.String(), op.Err); err != nil { // OK
			m.log.Warn("persist operation", "op", op.ID, "err", err)
		}
	})
	return m
}

// Start runs the informers for the life of the process.
func (m *Manager) Start(ctx context.Context) {
	m.ctx, m.cancel = context.WithCancel(ctx) // OK: server-lifetime ctx, set once at start-up
	go m.nodes.Run(m.ctx)                     // OK: informer goroutine
	go m.workloads.Run(m.ctx)                 // OK: informer goroutine
}

// lifetime is the ctx of the manager's own background work.
func (m *Manager) lifetime() context.Context { return m.ctx }

// RunControllers runs the queue workers and sweepers until ctx (leadership)
// ends. It blocks.
func (m *Manager) RunControllers(ctx context.Context) {
	if !m.nodes.WaitForSync(ctx) || !m.workloads.WaitForSync(ctx) { // OK
		return
	}
	m.log.Info("controllers starting", "workers", m.cfg.Workers)
	var wg sync.WaitGroup
	for i := 0; i < m.cfg.Workers; i++ {
		wg.Go(func() { m.runWorker(ctx, "node", m.nodeQueue, m.syncNode) })             // OK: worker started with the leader ctx
		wg.Go(func() { m.runWorker(ctx, "workload", m.workloadQueue, m.syncWorkload) }) // OK: worker started with the leader ctx
	}
	wg.Go(func() { m.sweepLoop(ctx) }) // OK
	<-ctx.Done()
	m.nodeQueue.ShutDown()
	m.workloadQueue.ShutDown()
	wg.Wait()
	m.log.Info("controllers stopped")
}

// Stop ends the informers and flushes a final event.
func (m *Manager) Stop() {
	if m.cancel != nil {
		m.cancel()
	}
	stopOps()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // OK: shutdown path
	defer cancel()
	if err := m.store.RecordEvent(ctx, store.Event{Kind: "ControlPlane", Object: "manager", Reason: "Stopped"}); err != nil { // OK
		m.log.Warn("final event", "err", err)
	}
}

// EnqueueNode schedules a sync of node name.
func (m *Manager) EnqueueNode(name string) { m.nodeQueue.Add(name) }

// EnqueueWorkload schedules a sync of workload name.
func (m *Manager) EnqueueWorkload(name string) { m.workloadQueue.Add(name) }

// QueueDepth is the number of items waiting in both queues.
func (m *Manager) QueueDepth() int { return m.nodeQueue.Len() + m.workloadQueue.Len() }

// Resync re-queues every workload from the store, in the background.
func (m *Manager) Resync(reason string) {
	go func() {
		ctx, cancel := context.WithTimeout(m.lifetime(), 30*time.Second) // OK: the manager's own goroutine
		defer cancel()
		ws, err := m.store.ListWorkloads(ctx) // OK
		if err != nil {
			m.log.Warn("resync", "reason", reason, "err", err)
			return
		}
		for _, w := range ws {
			m.workloadQueue.Add(w.Name)
		}
	}()
}

// Placements returns the known replicas of workload name.
func (m *Manager) Placements(name string) []Placement {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.placements[name])
}

func (m *Manager) setPlacements(name string, ps []Placement) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(ps) == 0 {
		delete(m.placements, name)
		return
	}
	m.placements[name] = ps
}

// workloadsOn lists the workloads with a replica on node.
func (m *Manager) workloadsOn(node string) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for w, ps := range m.placements {
		for _, p := range ps {
			if p.Node == node {
				out = append(out, w)
				break
			}
		}
	}
	slices.Sort(out)
	return out
}

// nodesMatching returns the schedulable, ready nodes whose labels match sel.
func (m *Manager) nodesMatching(sel map[string]string) []*store.Node {
	var out []*store.Node
	for _, n := range m.nodes.List() {
		if n.Unschedulable || n.Phase != "Ready" {
			continue
		}
		ok := true
		for k, v := range sel {
			if n.Labels[k] != v {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, n)
		}
	}
	slices.SortFunc(out, func(a, b *store.Node) int {
		switch {
		case a.Name < b.Name:
			return -1
		case a.Name > b.Name:
			return 1
		}
		return 0
	})
	return out
}

// pickNode chooses the matching node with the fewest replicas of w.
func (m *Manager) pickNode(w *store.Workload, current []Placement) *store.Node {
	count := make(map[string]int)
	for _, p := range current {
		count[p.Node]++
	}
	var best *store.Node
	for _, n := range m.nodesMatching(w.NodeSelector) {
		if best == nil || count[n.Name] < count[best.Name] {
			best = n
		}
	}
	return best
}
