package plugin

import (
	"context"
	"time"

	"google.golang.org/grpc"

	cpv1 "example.test/controlplane/gen/controlplane/v1"
)

// GRPCDriver is the control plane's side of a driver plugin.
type GRPCDriver struct {
	name   string
	conn   *grpc.ClientConn
	client cpv1.DriverPluginClient
}

// NewGRPCDriver wraps an established connection to a plugin.
func NewGRPCDriver(name string, conn *grpc.ClientConn) *GRPCDriver {
	return &GRPCDriver{name: name, conn: conn, client: cpv1.NewDriverPluginClient(conn)}
}

func (c *GRPCDriver) Name() string { return c.name }

// Handshake checks that the plugin speaks our protocol.
func (c *GRPCDriver) Handshake(ctx context.Context) (string, error) {
	resp, err := c.client.Handshake(ctx, &cpv1.HandshakeRequest{ProtocolVersion: 2})
	if err != nil {
		return "", err
	}
	return resp.GetVersion(), nil
}

func (c *GRPCDriver) Fingerprint() (map[string]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := c.client.Fingerprint(ctx, &cpv1.FingerprintRequest{})
	if err != nil {
		return nil, err
	}
	return resp.GetAttributes(), nil
}

func (c *GRPCDriver) StartTask(ctx context.Context, spec TaskSpec) (string, error) {
	resp, err := c.client.StartTask(ctx, &cpv1.StartTaskRequest{TaskId: spec.ID, Image: spec.Image, Args: spec.Args})
	if err != nil {
		return "", err
	}
	return resp.GetHandle(), nil
}

func (c *GRPCDriver) StopTask(ctx context.Context, taskID, signal string) error {
	_, err := c.client.StopTask(ctx, &cpv1.StopTaskRequest{TaskId: taskID, Signal: signal})
	return err
}

func (c *GRPCDriver) InspectTask(taskID string) (*TaskStatus, error) {
	resp, err := c.client.InspectTask(context.Background(), &cpv1.InspectTaskRequest{TaskId: taskID}) // OK? missingdeadline — an RPC with no deadline behind the package's own ctx-less Driver.InspectTask, reached through the interface from handlers ("still reported"), yet also an exported ctx-less convenience method whose callers are all in request scopes ("reported at its callers outside request scopes", so nowhere).
	if err != nil {
		return nil, err
	}
	return &TaskStatus{State: resp.GetState(), ExitCode: int(resp.GetExitCode())}, nil
}

// Close closes the connection to the plugin.
func (c *GRPCDriver) Close() error { return c.conn.Close() }
