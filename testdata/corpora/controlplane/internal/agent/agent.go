// Package agent is the node agent: it registers the node with the control
// plane, heartbeats, and runs the tasks assigned to it.
package agent

import (
	"context"
	"errors"
	"net/http"
	"time"

	"connectrpc.com/connect"

	cpv1 "example.test/controlplane/gen/controlplane/v1"
	"example.test/controlplane/gen/controlplane/v1/cpv1connect"
	"example.test/controlplane/internal/plugin"
	"example.test/controlplane/internal/telemetry"
)

// Config configures an Agent.
type Config struct {
	NodeID    string
	Address   string
	ServerURL string
}

// Agent is one node's agent.
type Agent struct {
	cfg      Config
	nodes    cpv1connect.NodeServiceClient
	driver   plugin.Driver
	log      *telemetry.Logger
	interval time.Duration
}

// New builds an agent talking to the control plane at cfg.ServerURL.
func New(cfg Config, hc *http.Client, driver plugin.Driver) *Agent {
	return &Agent{
		cfg:      cfg,
		nodes:    cpv1connect.NewNodeServiceClient(hc, cfg.ServerURL),
		driver:   driver,
		log:      telemetry.NewLogger("agent"),
		interval: 10 * time.Second,
	}
}

// Register registers the node with the control plane.
func (a *Agent) Register(ctx context.Context) error {
	attrs, err := a.driver.Fingerprint()
	if err != nil {
		return err
	}
	resp, err := a.nodes.RegisterNode(ctx, connect.NewRequest(&cpv1.RegisterNodeRequest{
		Node: &cpv1.Node{Id: a.cfg.NodeID, Address: a.cfg.Address, Attributes: attrs},
	}))
	if err != nil {
		return err
	}
	if s := resp.Msg.GetHeartbeatSeconds(); s > 0 {
		a.interval = time.Duration(s) * time.Second
	}
	return nil
}

// Run heartbeats and follows assignments until ctx is done, then deregisters
// the node.
func (a *Agent) Run(ctx context.Context) error {
	t := time.NewTimer(1) // OK: deadlinemath look-alike — 1 for time.NewTimer is the shortest duration on purpose: the first heartbeat fires at once, Reset gives the period.
	defer t.Stop()
	go a.followAssignments(ctx)
	for {
		select {
		case <-ctx.Done():
			a.deregister()
			return nil
		case <-t.C:
			hctx, cancel := context.WithTimeout(ctx, a.interval/2)
			resp, err := a.nodes.Heartbeat(hctx, connect.NewRequest(&cpv1.HeartbeatRequest{NodeId: a.cfg.NodeID})) // OK: missingdeadline look-alike — each turn derives its own timeout from the loop's ctx.
			cancel()
			next := a.interval
			if err == nil && resp.Msg.GetNextSeconds() > 0 {
				next = time.Duration(resp.Msg.GetNextSeconds()) * time.Second
			}
			t.Reset(next)
		}
	}
}

func (a *Agent) followAssignments(ctx context.Context) {
	for ctx.Err() == nil {
		stream, err := a.nodes.StreamAssignments(ctx, connect.NewRequest(&cpv1.AssignmentsRequest{NodeId: a.cfg.NodeID})) // OK: missingdeadline look-alike — a streaming call: not unary, a long-lived feed has no deadline on purpose.
		if err != nil {
			a.sleep(ctx, 5*time.Second)
			continue
		}
		for stream.Receive() {
			a.handle(ctx, stream.Msg())
		}
		_ = stream.Close()
		a.sleep(ctx, time.Second)
	}
}

func (a *Agent) handle(ctx context.Context, as *cpv1.Assignment) {
	switch as.GetAction() {
	case "start":
		_, err := a.driver.StartTask(ctx, plugin.TaskSpec{ID: as.GetJobId()})
		a.ack(ctx, as.GetJobId(), err)
	case "stop":
		err := a.driver.StopTask(ctx, as.GetJobId(), "SIGTERM")
		a.ack(ctx, as.GetJobId(), err)
	}
}

// ack reports the outcome with an out-of-band heartbeat. A watchdog cancels
// the call if the server does not answer in time.
func (a *Agent) ack(ctx context.Context, jobID string, err error) {
	actx, cancel := context.WithCancel(ctx)
	wd := time.AfterFunc(5*time.Second, cancel)
	defer wd.Stop()
	defer cancel()
	running := []string{jobID}
	if err != nil {
		running = nil
	}
	if _, herr := a.nodes.Heartbeat(actx, connect.NewRequest(&cpv1.HeartbeatRequest{NodeId: a.cfg.NodeID, Running: running})); herr != nil { // OK: missingdeadline look-alike — actx's cancel is run by a time.AfterFunc watchdog: it has a deadline.
		a.log.Warn(ctx, "ack", "job", jobID, "err", errors.Join(err, herr))
	}
}

func (a *Agent) deregister() {
	ctx := context.Background()
	if _, err := a.nodes.DeregisterNode(ctx, connect.NewRequest(&cpv1.DeregisterNodeRequest{NodeId: a.cfg.NodeID})); err != nil { // BUG: missingdeadline — deregistration on the way out runs with no deadline: an unresponsive server hangs the agent's shutdown forever.
		a.log.Warn(ctx, "deregister", "err", err)
	}
}

func (a *Agent) sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}
