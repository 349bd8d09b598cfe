// Package client is a catalog service's own client library: Client implements the generated
// catalogpb.CatalogClient and gives every attempt of a unary call a deadline of its own, so a
// program may wire it in wherever the generated interface is expected. Passthrough and
// Sometimes implement it too, but add no deadline (Sometimes on one path only): no boundsCalls
// fact. They call through the interface, which here too may hold a Client: no needsDeadline
// fact either.
package client

import (
	"context"
	"time"

	"google.golang.org/grpc"

	"example.com/gen/catalogpb"
)

// Client retries unary calls, each attempt bounded by the client's timeout.
type Client struct {
	cc      catalogpb.CatalogClient
	timeout time.Duration
}

// New returns a catalog client with a per-attempt timeout.
func New(cc grpc.ClientConnInterface, timeout time.Duration) catalogpb.CatalogClient {
	return NewBounded(cc, timeout)
}

// NewBounded is New with its concrete type.
func NewBounded(cc grpc.ClientConnInterface, timeout time.Duration) *Client {
	return &Client{cc: catalogpb.NewCatalogClient(cc), timeout: timeout}
}

func (c *Client) attemptContext(parent context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(parent, c.timeout)
}

func (c *Client) retry(ctx context.Context, op func(context.Context, catalogpb.CatalogClient) error) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = op(ctx, c.cc); err == nil {
			return nil
		}
	}
	return err
}

func (c *Client) GetItem(ctx context.Context, in *catalogpb.GetItemRequest, opts ...grpc.CallOption) (*catalogpb.Item, error) { // want GetItem:"boundsCalls"
	var out *catalogpb.Item
	op := func(ctx context.Context, cc catalogpb.CatalogClient) error {
		ctx, cancel := c.attemptContext(ctx)
		defer cancel()
		var err error
		out, err = cc.GetItem(ctx, in, opts...)
		return err
	}
	return out, c.retry(ctx, op)
}

func (c *Client) ListItems(ctx context.Context, in *catalogpb.ListItemsRequest, opts ...grpc.CallOption) (grpc.ServerStreamingClient[catalogpb.Item], error) {
	return c.cc.ListItems(ctx, in, opts...)
}

func (c *Client) UploadItems(ctx context.Context, opts ...grpc.CallOption) (grpc.ClientStreamingClient[catalogpb.Item, catalogpb.UploadSummary], error) {
	return c.cc.UploadItems(ctx, opts...)
}

func (c *Client) Chat(ctx context.Context, opts ...grpc.CallOption) (grpc.BidiStreamingClient[catalogpb.ChatMessage, catalogpb.ChatMessage], error) {
	return c.cc.Chat(ctx, opts...)
}

// Passthrough counts calls and passes the caller's ctx on as it is: no deadline of its own.
type Passthrough struct {
	catalogpb.CatalogClient
	calls int
}

func (p *Passthrough) GetItem(ctx context.Context, in *catalogpb.GetItemRequest, opts ...grpc.CallOption) (*catalogpb.Item, error) {
	p.calls++
	return p.CatalogClient.GetItem(ctx, in, opts...)
}

// Sometimes bounds one path only: not a bounding client.
type Sometimes struct {
	catalogpb.CatalogClient
	Fast bool
}

func (s Sometimes) GetItem(ctx context.Context, in *catalogpb.GetItemRequest, opts ...grpc.CallOption) (*catalogpb.Item, error) {
	if s.Fast {
		ctx2, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		return s.CatalogClient.GetItem(ctx2, in, opts...)
	}
	return s.CatalogClient.GetItem(ctx, in, opts...)
}

// Retrying runs every call through invoke, a helper that derives the deadline before it runs
// the call's literal: the deadline is in the helper, not in the literal.
type Retrying struct {
	cc      catalogpb.CatalogClient
	timeout time.Duration
}

// NewRetrying returns a retrying client with its concrete type.
func NewRetrying(cc grpc.ClientConnInterface, timeout time.Duration) *Retrying {
	return &Retrying{cc: catalogpb.NewCatalogClient(cc), timeout: timeout}
}

func invoke[R any](ctx context.Context, r *Retrying, f func(context.Context, catalogpb.CatalogClient) (*R, error)) (*R, error) {
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	var res *R
	attempt := func() error {
		var err error
		res, err = f(ctx, r.cc)
		return err
	}
	var err error
	for i := 0; i < 3; i++ {
		if err = attempt(); err == nil {
			break
		}
	}
	return res, err
}

func (r *Retrying) GetItem(ctx context.Context, in *catalogpb.GetItemRequest, opts ...grpc.CallOption) (*catalogpb.Item, error) { // want GetItem:"boundsCalls"
	return invoke(ctx, r, func(ctx context.Context, cc catalogpb.CatalogClient) (*catalogpb.Item, error) {
		return cc.GetItem(ctx, in, opts...)
	})
}

// Hedged runs a call through hedge, which bounds the first attempt only: the second gets the
// caller's ctx as it is.
type Hedged struct {
	cc catalogpb.CatalogClient
}

func hedge(ctx context.Context, cc catalogpb.CatalogClient, f func(context.Context, catalogpb.CatalogClient) (*catalogpb.Item, error)) (*catalogpb.Item, error) {
	first, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if item, err := f(first, cc); err == nil {
		return item, nil
	}
	return f(ctx, cc)
}

func (h Hedged) GetItem(ctx context.Context, in *catalogpb.GetItemRequest, opts ...grpc.CallOption) (*catalogpb.Item, error) {
	return hedge(ctx, h.cc, func(ctx context.Context, cc catalogpb.CatalogClient) (*catalogpb.Item, error) {
		return cc.GetItem(ctx, in, opts...)
	})
}

// Handing hands its literal to a helper that gives it a deadline, and keeps it too: the kept
// literal may run with any ctx.
type Handing struct {
	cc   catalogpb.CatalogClient
	last func(context.Context, catalogpb.CatalogClient) (*catalogpb.Item, error)
}

func bounded(ctx context.Context, cc catalogpb.CatalogClient, f func(context.Context, catalogpb.CatalogClient) (*catalogpb.Item, error)) (*catalogpb.Item, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	return f(ctx, cc)
}

func (h *Handing) GetItem(ctx context.Context, in *catalogpb.GetItemRequest, opts ...grpc.CallOption) (*catalogpb.Item, error) {
	call := func(ctx context.Context, cc catalogpb.CatalogClient) (*catalogpb.Item, error) {
		return cc.GetItem(ctx, in, opts...)
	}
	h.last = call
	return bounded(ctx, h.cc, call)
}
