// Package client is the Go client of the admin API, used by tctl and the
// migration tool.
package client

import (
	"context"
	"net/http"
	"time"

	"connectrpc.com/connect"

	"example.test/telemetry/gen/adminpb"
	"example.test/telemetry/gen/adminpb/adminpbconnect"
	"example.test/telemetry/pkg/tenant"
)

// Client wraps the generated admin client.
type Client struct {
	Admin adminpbconnect.AdminServiceClient
	org   string
}

type orgInterceptor struct{ org string }

func (i orgInterceptor) WrapUnary(next connect.UnaryFunc) connect.UnaryFunc {
	return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
		if i.org != "" {
			req.Header().Set(tenant.Header, i.org)
		}
		return next(ctx, req)
	}
}

func (i orgInterceptor) WrapStreamingClient(next connect.StreamingClientFunc) connect.StreamingClientFunc {
	return next
}

func (i orgInterceptor) WrapStreamingHandler(next connect.StreamingHandlerFunc) connect.StreamingHandlerFunc {
	return next
}

// New returns a client of the admin API at baseURL acting for org.
func New(baseURL, org string) *Client {
	hc := &http.Client{Transport: http.DefaultTransport}
	return &Client{
		Admin: adminpbconnect.NewAdminServiceClient(hc, baseURL, connect.WithInterceptors(orgInterceptor{org: org})),
		org:   org,
	}
}

// Ping checks that the API answers and returns its version.
func (c *Client) Ping() (string, error) {
	resp, err := c.Admin.Ping(context.Background(), connect.NewRequest(&adminpb.PingRequest{})) // OK: missingdeadline — the library's convenience API: reported at its callers
	if err != nil {
		return "", err
	}
	return resp.Msg.GetVersion(), nil
}

// Tenants lists the tenants. A nil ctx means no deadline.
func (c *Client) Tenants(ctx context.Context) ([]*adminpb.Tenant, error) {
	if ctx == nil {
		ctx = context.Background() // OK: missingdeadline — fallback of a nil check of the ctx the caller gives
	}
	resp, err := c.Admin.ListTenants(ctx, connect.NewRequest(&adminpb.ListTenantsRequest{})) // OK: missingdeadline — the caller's ctx decides
	if err != nil {
		return nil, err
	}
	return resp.Msg.GetTenants(), nil
}

// WaitReady pings until the API answers or timeout passes.
func (c *Client) WaitReady(ctx context.Context, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	for {
		_, err := c.Admin.Ping(ctx, connect.NewRequest(&adminpb.PingRequest{})) // OK: missingdeadline — bounded by timeout
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}
