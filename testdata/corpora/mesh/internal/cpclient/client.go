// Package cpclient is the agent's client library for the control plane's node service.
package cpclient

import (
	"context"
	"time"

	"google.golang.org/grpc"

	"example.test/mesh/gen/nodev1"
)

// Client talks to the control plane's node service.
type Client struct {
	node nodev1.NodeServiceClient
}

// New returns a client on conn.
func New(conn grpc.ClientConnInterface) *Client {
	return &Client{node: nodev1.NewNodeServiceClient(conn)}
}

// Ping checks that the control plane answers and returns its version.
func (c *Client) Ping() (string, error) {
	resp, err := c.node.Ping(context.Background(), &nodev1.PingRequest{}) // OK: missingdeadline — an exported convenience API with no ctx: its callers are reported
	if err != nil {
		return "", err
	}
	return resp.GetVersion(), nil
}

// Register registers the node and returns its session.
func (c *Client) Register(ctx context.Context, nodeID, zone, version string, workloads []string) (*nodev1.RegisterResponse, error) {
	return c.node.Register(ctx, &nodev1.RegisterRequest{NodeId: nodeID, Zone: zone, Version: version, Workloads: workloads})
}

// Heartbeat sends one heartbeat, bounded by timeout.
func (c *Client) Heartbeat(ctx context.Context, session string, probes map[string]string, timeout time.Duration) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	resp, err := c.node.Heartbeat(ctx, &nodev1.HeartbeatRequest{SessionId: session, ProbeResults: probes})
	if err != nil {
		return false, err
	}
	return resp.GetReregister(), nil
}
