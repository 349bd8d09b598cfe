// Package sdk is the small client library the tools use.
package sdk

import (
	"context"

	"google.golang.org/grpc"

	venuev1 "example.test/shapes2/gen/venue/v1"
)

// Client wraps the venue service.
type Client struct{ rpc venuev1.VenueServiceClient }

// New wraps conn.
func New(conn grpc.ClientConnInterface) *Client {
	return &Client{rpc: venuev1.NewVenueServiceClient(conn)}
}

// Ping checks that the venue service answers.
func (c *Client) Ping() error {
	_, err := c.rpc.GetVenue(context.Background(), &venuev1.VenueRequest{VenueId: "ping"}) // OK: a convenience API, reported at its callers
	return err
}

// Venue returns a venue with the caller's ctx.
func (c *Client) Venue(ctx context.Context, id string) (*venuev1.Venue, error) {
	return c.rpc.GetVenue(ctx, &venuev1.VenueRequest{VenueId: id})
}
