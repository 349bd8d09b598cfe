// Package edgeclient is the typed client the fleet tools use to talk to the
// edge control plane.
package edgeclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"google.golang.org/grpc"

	edgev1 "example.test/gateway/gen/edge/v1"
)

// Client wraps the generated EdgeService client.
type Client struct {
	api edgev1.EdgeServiceClient
}

// New returns a client over cc.
func New(cc grpc.ClientConnInterface) *Client {
	return &Client{api: edgev1.NewEdgeServiceClient(cc)}
}

// NewFromAPI wraps an existing generated client (tests use a fake).
func NewFromAPI(api edgev1.EdgeServiceClient) *Client { return &Client{api: api} }

// GetRoute returns one route.
func (c *Client) GetRoute(ctx context.Context, id string) (*edgev1.Route, error) {
	return c.api.GetRoute(ctx, &edgev1.GetRouteRequest{Id: id})
}

// ListRoutes returns every route of host (or all routes), following pages.
func (c *Client) ListRoutes(ctx context.Context, host string) ([]*edgev1.Route, error) {
	var out []*edgev1.Route
	token := ""
	for {
		resp, err := c.api.ListRoutes(ctx, &edgev1.ListRoutesRequest{Host: host, PageSize: 500, PageToken: token})
		if err != nil {
			return nil, err
		}
		out = append(out, resp.GetRoutes()...)
		if token = resp.GetNextPageToken(); token == "" {
			return out, nil
		}
	}
}

// PurgeCache purges cached responses under prefix.
func (c *Client) PurgeCache(ctx context.Context, prefix string, reloadProxy bool) (int64, error) {
	resp, err := c.api.PurgeCache(ctx, &edgev1.PurgeCacheRequest{Prefix: prefix, ReloadProxy: reloadProxy})
	if err != nil {
		return 0, err
	}
	return resp.GetPurged(), nil
}

// DrainNode drains node with the given grace period.
func (c *Client) DrainNode(ctx context.Context, node string, grace time.Duration) (int32, error) {
	resp, err := c.api.DrainNode(ctx, &edgev1.DrainNodeRequest{Node: node, GraceSeconds: int32(grace.Seconds())})
	if err != nil {
		return 0, fmt.Errorf("drain %s: %w", node, err)
	}
	return resp.GetConnectionsMoved(), nil
}

// Ping pings the control plane.
func (c *Client) Ping(ctx context.Context, deep bool) (string, error) {
	payload := "edgectl"
	if deep {
		payload = "deep"
	}
	resp, err := c.api.Ping(ctx, &edgev1.PingRequest{Payload: payload})
	if err != nil {
		return "", err
	}
	return resp.GetNode(), nil
}

// WatchRoutes calls fn for every route event until ctx is done or the server
// ends the stream.
func (c *Client) WatchRoutes(ctx context.Context, host string, since int64, fn func(*edgev1.RouteEvent)) error {
	stream, err := c.api.WatchRoutes(ctx, &edgev1.WatchRoutesRequest{Host: host, SinceRevision: since})
	if err != nil {
		return err
	}
	for {
		ev, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		fn(ev)
	}
}
