package nodeagent

import (
	"context"
	"fmt"
	"time"

	"google.golang.org/grpc"

	agentv1 "example.test/operator/gen/agent/v1"
)

// Client talks to the agent of one node.
type Client struct {
	node         string
	addr         string
	rpc          agentv1.AgentServiceClient
	callTimeout  time.Duration
	execTimeout  time.Duration
	drainTimeout time.Duration
}

// Node is the name of the node this client talks to.
func (c *Client) Node() string { return c.node }

// Status returns the agent's view of the node.
func (c *Client) Status(ctx context.Context) (*agentv1.NodeStatus, error) {
	if ctx == nil {
		ctx = context.Background() // OK: nil fallback
	}
	ctx, cancel := context.WithTimeout(ctx, c.callTimeout)
	defer cancel()
	st, err := c.rpc.GetStatus(ctx, &agentv1.GetStatusRequest{})
	if err != nil {
		return nil, fmt.Errorf("node %s: status: %w", c.node, err)
	}
	return st, nil
}

// Exec runs argv on the node. Remote commands get the exec budget, which is
// usually longer than what API callers allow.
func (c *Client) Exec(ctx context.Context, argv []string) (*agentv1.RunCommandResponse, error) {
	rctx, cancel := context.WithTimeout(context.Background(), c.execTimeout)
	defer cancel()
	resp, err := c.rpc.RunCommand(rctx, &agentv1.RunCommandRequest{
		Argv:           argv,
		TimeoutSeconds: int32(c.execTimeout / time.Second),
	})
	if err != nil {
		return nil, fmt.Errorf("node %s: exec %q: %w", c.node, argv, err)
	}
	return resp, nil
}

// PullImage asks the node to pull image. Pulls of large images can take
// minutes, so no default budget is applied: the caller decides.
func (c *Client) PullImage(ctx context.Context, image string) (*agentv1.PullImageResponse, error) {
	resp, err := c.rpc.PullImage(ctx, &agentv1.PullImageRequest{Image: image})
	if err != nil {
		return nil, fmt.Errorf("node %s: pull %s: %w", c.node, image, err)
	}
	return resp, nil
}

// StartContainer starts one replica of a workload on the node.
func (c *Client) StartContainer(ctx context.Context, req *agentv1.StartContainerRequest) (*agentv1.ContainerStatus, error) {
	ctx, cancel := context.WithTimeout(ctx, c.callTimeout)
	defer cancel()
	return c.rpc.StartContainer(ctx, req)
}

// StopContainer stops a container, allowing grace for it to exit. Long
// graceful stops are not tied to the caller: interrupting one half way leaves
// the container in SIGTERM limbo on the node.
func (c *Client) StopContainer(ctx context.Context, id string, grace time.Duration) (*agentv1.ContainerStatus, error) {
	base := ctx
	if grace > c.callTimeout {
		base = context.Background()
	}
	ctx, cancel := context.WithTimeout(base, grace+c.callTimeout)
	defer cancel()
	return c.rpc.StopContainer(ctx, &agentv1.StopContainerRequest{Id: id, GracePeriodSeconds: int32(grace / time.Second)})
}

// Restart restarts a container with the default budget.
func (c *Client) Restart(id string) (*agentv1.ContainerStatus, error) {
	return c.RestartContext(context.Background(), id)
}

// RestartContext restarts a container.
func (c *Client) RestartContext(ctx context.Context, id string) (*agentv1.ContainerStatus, error) {
	ctx, cancel := context.WithTimeout(ctx, c.callTimeout)
	defer cancel()
	st, err := c.rpc.RestartContainer(ctx, &agentv1.RestartContainerRequest{Id: id})
	if err != nil {
		return nil, fmt.Errorf("node %s: restart %s: %w", c.node, id, err)
	}
	return st, nil
}

// Drain stops every container on the node.
func (c *Client) Drain(ctx context.Context, grace time.Duration, force bool) (*agentv1.DrainResponse, error) {
	ctx, cancel := context.WithTimeout(ctx, grace+c.drainTimeout)
	defer cancel()
	return c.rpc.Drain(ctx, &agentv1.DrainRequest{GracePeriodSeconds: int32(grace / time.Second), Force: force})
}

// Diagnostics collects a support bundle from the node.
func (c *Client) Diagnostics(ctx context.Context, journal bool) (*agentv1.CollectDiagnosticsResponse, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	return c.rpc.CollectDiagnostics(ctx, &agentv1.CollectDiagnosticsRequest{IncludeJournal: journal})
}

// StreamLogs follows the journal of unit on the node.
func (c *Client) StreamLogs(ctx context.Context, unit string, follow bool) (grpc.ServerStreamingClient[agentv1.LogLine], error) {
	return c.rpc.StreamLogs(ctx, &agentv1.StreamLogsRequest{Unit: unit, Follow: follow, Tail: 200})
}
