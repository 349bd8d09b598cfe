// Package vtctld serves the operator API: keyspaces, schema reloads,
// reparents and resharding workflows.
package vtctld

import (
	"context"
	"log/slog"
	"os"
	"sync"
	"time"

	"google.golang.org/grpc"

	"example.test/sqlproxy/gen/adminpb"
	"example.test/sqlproxy/internal/servenv"
	"example.test/sqlproxy/tmclient"
	"example.test/sqlproxy/topo"
	"example.test/sqlproxy/workflow"
)

// Server serves the Vtctld service.
type Server struct {
	adminpb.UnimplementedVtctldServer

	ts     *topo.Server
	tmc    *tmclient.Client
	wf     *workflow.Engine
	logger *slog.Logger

	ctx    context.Context
	cancel context.CancelFunc

	mu       sync.Mutex
	watchers map[string]context.CancelFunc
	trackers map[string]*replTracker
}

// NewServer returns the vtctld server.
func NewServer(ts *topo.Server, tmc *tmclient.Client, wf *workflow.Engine) *Server {
	ctx, cancel := context.WithCancel(context.Background()) // OK: ctxbackground — constructor: the server's lifetime
	return &Server{
		ts:       ts,
		tmc:      tmc,
		wf:       wf,
		logger:   slog.New(slog.NewTextHandler(os.Stderr, nil)).With("component", "vtctld"),
		ctx:      ctx,
		cancel:   cancel,
		watchers: map[string]context.CancelFunc{},
		trackers: map[string]*replTracker{},
	}
}

// Register registers the Vtctld service on gs.
func (s *Server) Register(gs *grpc.Server) {
	adminpb.RegisterVtctldServer(gs, s)
}

// Close stops the watchers and trackers.
func (s *Server) Close() {
	s.cancel()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.trackers {
		t.Stop()
	}
}

// watchJob follows a workflow until it ends and records its outcome.
func (s *Server) watchJob(ctx context.Context, id string) {
	t := time.NewTicker(10 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		state, rows, msg, err := s.wf.Status(ctx, id)
		if err == nil && state == workflow.StateRunning {
			servenv.Infof(ctx, "workflow %s: %d rows copied", id, rows)
			continue
		}
		s.mu.Lock()
		delete(s.watchers, id)
		s.mu.Unlock()
		rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		_ = s.ts.RecordEvent(rctx, "", "WorkflowEnded", id+": "+string(state)+" "+msg)
		cancel()
		return
	}
}

// replTracker pings a newly promoted primary until it is replaced.
type replTracker struct {
	tmc     *tmclient.Client
	primary *topo.Tablet

	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}
}

func newReplTracker(tmc *tmclient.Client, primary *topo.Tablet) *replTracker {
	return &replTracker{tmc: tmc, primary: primary}
}

// Run starts the tracker; it runs until Stop.
func (t *replTracker) Run(ctx context.Context) {
	t.ctx, t.cancel = context.WithCancel(ctx)
	t.done = make(chan struct{})
	go t.loop()
}

func (t *replTracker) loop() {
	defer close(t.done)
	tick := time.NewTicker(5 * time.Second)
	defer tick.Stop()
	for {
		select {
		case <-t.ctx.Done():
			return
		case <-tick.C:
		}
		pctx, cancel := context.WithTimeout(t.ctx, 5*time.Second)
		if err := t.tmc.PingTablet(pctx, t.primary.Addr); err != nil {
			servenv.Warningf(pctx, "primary %s does not answer: %v", t.primary.Alias, err)
		}
		cancel()
	}
}

// Stop stops the tracker and waits for it.
func (t *replTracker) Stop() {
	t.cancel()
	<-t.done
}
