// Package nodeapi implements the NodeService (connect-go) that node agents
// register with and heartbeat to.
package nodeapi

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"connectrpc.com/connect"

	cpv1 "example.test/controlplane/gen/controlplane/v1"
	"example.test/controlplane/gen/controlplane/v1/cpv1connect"
	"example.test/controlplane/internal/rpcx"
	"example.test/controlplane/internal/telemetry"
)

var errDraining = errors.New("node is draining")

// Service implements cpv1connect.NodeServiceHandler.
type Service struct {
	db       *sql.DB
	log      *telemetry.Logger
	bus      *Bus
	lifetime context.Context
}

var _ cpv1connect.NodeServiceHandler = (*Service)(nil)

// New builds the service over db; lifetime is the server's.
func New(lifetime context.Context, db *sql.DB, bus *Bus) (*Service, error) {
	if _, err := db.Exec(`CREATE TABLE IF NOT EXISTS nodes (id TEXT PRIMARY KEY, address TEXT, status TEXT, last_seen TIMESTAMP)`); err != nil {
		return nil, err
	}
	return &Service{db: db, log: telemetry.NewLogger("nodeapi"), bus: bus, lifetime: lifetime}, nil
}

// Handler returns the HTTP handler to mount.
func (s *Service) Handler() (string, http.Handler) {
	return cpv1connect.NewNodeServiceHandler(s)
}

func (s *Service) RegisterNode(ctx context.Context, req *connect.Request[cpv1.RegisterNodeRequest]) (*connect.Response[cpv1.RegisterNodeResponse], error) {
	sctx, span := telemetry.StartLinked(ctx, "NodeService.RegisterNode") // BUG: ctxbackground — StartLinked returns a ctx rooted at context.Background() (a linked span), and the handler then writes the node row with it.
	defer span.End()

	n := req.Msg.GetNode()
	if n.GetId() == "" || n.GetAddress() == "" {
		// Slow down misconfigured agents that retry in a tight loop.
		time.Sleep(500 * time.Millisecond) // OK: ctxless look-alike — a single deliberate penalty sleep, not in a loop.
		return nil, connect.NewError(connect.CodeInvalidArgument, errors.New("node id and address are required"))
	}
	if _, err := s.db.ExecContext(sctx,
		`INSERT INTO nodes (id, address, status, last_seen) VALUES ($1, $2, 'ready', now()) ON CONFLICT (id) DO UPDATE SET address = $2, status = 'ready'`,
		n.GetId(), n.GetAddress()); err != nil {
		return nil, connect.NewError(connect.CodeInternal, fmt.Errorf("register %s: %w", n.GetId(), err)) // OK: statusmask look-alike — the error is of a call made with StartLinked's fresh root, not the request's deadline (ctxbackground reports the ctx).
	}

	// The registration event is recorded even if the agent gives up on the
	// call: a node that is in the table must be in the event log too.
	ectx := context.WithoutCancel(ctx)
	// ^OK: detach look-alike — unbounded, but the comment above the statement gives the reason.
	if _, err := s.db.ExecContext(ectx, `INSERT INTO node_events (node, what, at) VALUES ($1, 'registered', now())`, n.GetId()); err != nil {
		s.log.Warn(ctx, "node event", "node", n.GetId(), "err", err)
	}

	return connect.NewResponse(&cpv1.RegisterNodeResponse{NodeId: n.GetId(), HeartbeatSeconds: 10}), nil
}

func (s *Service) DeregisterNode(ctx context.Context, req *connect.Request[cpv1.DeregisterNodeRequest]) (*connect.Response[cpv1.DeregisterNodeResponse], error) {
	id := req.Msg.GetNodeId()
	dctx := context.WithoutCancel(ctx)
	// ^BUG: detach
	if _, err := s.db.ExecContext(dctx, `UPDATE nodes SET status = 'down' WHERE id = $1`, id); err != nil {
		s.log.Error(ctx, "deregister", err, "node", id)
		return nil, connect.NewError(connect.CodeInternal, errors.New("could not mark the node down"))
	}
	s.bus.Close(id)
	s.recordEvent(dctx, id, "deregistered")
	return connect.NewResponse(&cpv1.DeregisterNodeResponse{}), nil
}

func (s *Service) Heartbeat(ctx context.Context, req *connect.Request[cpv1.HeartbeatRequest]) (*connect.Response[cpv1.HeartbeatResponse], error) {
	id := req.Msg.GetNodeId()
	telemetry.NodeHeartbeats.Add(ctx, 1, telemetry.Attr{Key: "node", Value: id})
	slog.Debug("heartbeat", "node", id) // OK: ctxless look-alike — slog's DebugContext twin only reads values from its ctx.

	// A missed heartbeat write marks the node down; do not let a short client
	// timeout cause that.
	if _, err := s.db.ExecContext(rpcx.ProcessContext(), `UPDATE nodes SET last_seen = now() WHERE id = $1`, id); err != nil { // BUG: ctxflow — the write runs on the process-lifetime ctx from rpcx.ProcessContext(): no deadline, and it outlives the heartbeat.
		s.log.Warn(ctx, "heartbeat write", "node", id, "err", err)
	}
	if err := s.checkDrain(ctx, id); err != nil {
		return nil, connect.NewError(connect.CodeFailedPrecondition, fmt.Errorf("node %s: %w", id, err)) // BUG: statusmask — checkDrain queries with the request's ctx; its deadline is reported as FailedPrecondition.
	}
	return connect.NewResponse(&cpv1.HeartbeatResponse{NextSeconds: 10}), nil
}

func (s *Service) checkDrain(ctx context.Context, id string) error {
	var st string
	if err := s.db.QueryRowContext(ctx, `SELECT status FROM nodes WHERE id = $1`, id).Scan(&st); err != nil {
		return err
	}
	if st == "draining" {
		return errDraining
	}
	return nil
}

func (s *Service) ListNodes(ctx context.Context, req *connect.Request[cpv1.ListNodesRequest]) (*connect.Response[cpv1.ListNodesResponse], error) {
	rows, err := s.db.Query(`SELECT id, address, status FROM nodes WHERE status = $1`, req.Msg.GetStatus()) // BUG: ctxless — database/sql Query in a handler; QueryContext(ctx, …) would stop it when the caller gives up.
	if err != nil {
		return nil, connect.NewError(connect.CodeInternal, err)
	}
	defer rows.Close()
	out := &cpv1.ListNodesResponse{}
	for rows.Next() {
		n := &cpv1.Node{}
		if err := rows.Scan(&n.Id, &n.Address, &n.Status); err != nil {
			return nil, connect.NewError(connect.CodeInternal, err)
		}
		out.Nodes = append(out.Nodes, n)
	}
	if err := rows.Err(); err != nil {
		return nil, connect.NewError(connect.CodeInternal, err)
	}
	return connect.NewResponse(out), nil
}

func (s *Service) StreamAssignments(ctx context.Context, req *connect.Request[cpv1.AssignmentsRequest], stream *connect.ServerStream[cpv1.Assignment]) error {
	id := req.Msg.GetNodeId()
	w := newWatcher(s.db, id)
	w.Run(s.lifetime) // OK: ctxflow look-alike — Run uses the server's ctx only to make the watcher's lifetime (w.ctx, w.cancel = WithCancel), ended by w.Stop.
	defer w.Stop()

	ch := s.bus.Subscribe(ctx, id)
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case a, ok := <-ch: // OK: streamloop look-alike — channel returned by Subscribe(ctx, …), which closes it when the request's ctx is done.
			if !ok {
				return nil
			}
			if err := stream.Send(a); err != nil {
				if connect.CodeOf(err) == connect.CodeCanceled {
					return nil
				}
				return connect.NewError(connect.CodeUnavailable, fmt.Errorf("send: %w", err)) // OK: statusmask look-alike — connect.CodeOf classified the error first (and Send is not a ctx-taking call).
			}
		}
	}
}

// recordEvent appends to the node event log, giving the write its own bound.
func (s *Service) recordEvent(ctx context.Context, node, what string) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if _, err := s.db.ExecContext(ctx, `INSERT INTO node_events (node, what, at) VALUES ($1, $2, now())`, node, what); err != nil {
		s.log.Warn(ctx, "node event", "node", node, "err", err)
	}
}

// watcher polls the node's desired state for the lifetime it is given.
type watcher struct {
	db     *sql.DB
	node   string
	ctx    context.Context
	cancel context.CancelFunc
}

func newWatcher(db *sql.DB, node string) *watcher { return &watcher{db: db, node: node} }

func (w *watcher) Run(ctx context.Context) {
	w.ctx, w.cancel = context.WithCancel(ctx)
	go w.loop()
}

func (w *watcher) Stop() { w.cancel() }

func (w *watcher) loop() {
	t := time.NewTicker(5 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-w.ctx.Done():
			return
		case <-t.C:
			qctx, cancel := context.WithTimeout(w.ctx, 2*time.Second)
			_, _ = w.db.ExecContext(qctx, `UPDATE nodes SET watched_at = now() WHERE id = $1`, w.node)
			cancel()
		}
	}
}

// Bus fans assignments out to the nodes' streams.
type Bus struct {
	mu   sync.Mutex
	subs map[string]chan *cpv1.Assignment
}

func NewBus() *Bus { return &Bus{subs: map[string]chan *cpv1.Assignment{}} }

// Subscribe returns node's feed; it is closed when ctx is done.
func (b *Bus) Subscribe(ctx context.Context, node string) <-chan *cpv1.Assignment {
	ch := make(chan *cpv1.Assignment, 8)
	b.mu.Lock()
	b.subs[node] = ch
	b.mu.Unlock()
	context.AfterFunc(ctx, func() { b.Close(node) })
	return ch
}

// Publish sends a to node's feed if it is connected.
func (b *Bus) Publish(node string, a *cpv1.Assignment) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if ch, ok := b.subs[node]; ok {
		select {
		case ch <- a:
		default:
		}
	}
}

// Close ends node's feed.
func (b *Bus) Close(node string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if ch, ok := b.subs[node]; ok {
		close(ch)
		delete(b.subs, node)
	}
}
