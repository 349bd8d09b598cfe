// Package sdk is the worker and client SDK.
package sdk

import (
	"context"

	"google.golang.org/grpc"

	frontendv1 "example.test/workflow/gen/frontend/v1"
)

// Client is the workflow client.
type Client struct{ svc frontendv1.WorkflowServiceClient }

// NewClient wraps a connection.
func NewClient(cc grpc.ClientConnInterface) *Client {
	return &Client{svc: frontendv1.NewWorkflowServiceClient(cc)}
}

// Describe is a convenience for scripts; use Service().DescribeWorkflow for a deadline.
func (c *Client) Describe(id string) (string, error) {
	resp, err := c.svc.DescribeWorkflow(context.Background(), &frontendv1.DescribeWorkflowRequest{WorkflowId: id}) // OK: missingdeadline — a library's convenience API, reported at its callers
	return resp.GetStatus(), err
}

// Signal sends a signal with the caller's ctx.
func (c *Client) Signal(ctx context.Context, id, name string, payload []byte) error {
	_, err := c.svc.SignalWorkflow(ctx, &frontendv1.SignalWorkflowRequest{WorkflowId: id, Signal: name, Payload: payload}) // OK: missingdeadline — a wrapper checked at its callers
	return err
}

// Service exposes the generated client.
func (c *Client) Service() frontendv1.WorkflowServiceClient { return c.svc }
