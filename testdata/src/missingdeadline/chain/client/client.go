// Package client is a hand-written wrapper around the generated catalog client: the first
// of three packages a deadline-less ctx travels through.
package client

import (
	"context"
	"time"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// Client wraps the generated client.
type Client struct {
	rpc catalogpb.CatalogClient
}

// New returns a Client on cc.
func New(cc grpc.ClientConnInterface) *Client {
	return &Client{rpc: catalogpb.NewCatalogClient(cc)}
}

// Item passes its caller's ctx to the RPC: its callers decide the deadline.
func (c *Client) Item(ctx context.Context, id string) (*catalogpb.Item, error) { // want Item:`needsDeadline\(1: CatalogClient.GetItem\)`
	ctx = metadata.AppendToOutgoingContext(ctx, "x-caller", "client")
	return c.rpc.GetItem(ctx, &catalogpb.GetItemRequest{Id: id})
}

// BoundedItem gives every call its own budget: no fact.
func (c *Client) BoundedItem(ctx context.Context, id string) (*catalogpb.Item, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	return c.rpc.GetItem(ctx, &catalogpb.GetItemRequest{Id: id})
}

// Items fetches concurrently; the goroutines capture ctx.
func (c *Client) Items(ctx context.Context, ids []string) []*catalogpb.Item { // want Items:`needsDeadline\(1: client.fetch → CatalogClient.GetItem\)`
	out := make([]*catalogpb.Item, len(ids))
	done := make(chan struct{})
	for i, id := range ids {
		go func() {
			out[i], _ = fetch(ctx, c.rpc, id)
			done <- struct{}{}
		}()
	}
	for range ids {
		<-done
	}
	return out
}

// fetch is unexported: its need stays in the package.
func fetch(ctx context.Context, rpc catalogpb.CatalogClient, id string) (*catalogpb.Item, error) {
	return rpc.GetItem(ctx, &catalogpb.GetItemRequest{Id: id})
}

// Warm is a convenience API: it takes no ctx and makes its RPC with context.Background(). That
// is the library's documented choice, not the bug: its callers are reported instead.
func (c *Client) Warm() { // want Warm:`noCtxAPI\(context.Background\(\): CatalogClient.GetItem\)`
	_, _ = c.rpc.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: "warm"})
}

// Names is a convenience API whose loop only converts the response: still the library's API.
func (c *Client) Names(id string) []string { // want Names:`noCtxAPI\(context.Background\(\): CatalogClient.GetItem\)`
	item, err := c.rpc.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id})
	if err != nil {
		return nil
	}
	var out []string
	for _, r := range item.GetName() {
		out = append(out, string(r))
	}
	return out
}

// Refresh calls the RPC in a loop, with a root of its own: a job that decides its deadline,
// reported here.
func (c *Client) Refresh(ids []string) {
	for _, id := range ids {
		_, _ = c.rpc.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient\.GetItem has no deadline`
	}
}

// warmAll calls the convenience API where a deadline matters: reported at the call.
func (c *Client) warmAll() {
	c.Warm() // want `Client.Warm calls RPC CatalogClient.GetItem with context.Background\(\), which has no deadline`
}

// WarmTwice is itself such an API: it passes the question on to its callers.
func (c *Client) WarmTwice() { // want WarmTwice:`noCtxAPI\(context.Background\(\): Client.Warm → CatalogClient.GetItem\)`
	c.Warm()
	c.Warm()
}

// Resolve is a no-ctx API too, but what it wraps is no call its callers could make with a ctx
// of their own (resolve is unexported): the API's signature is the library's decision, and a
// fix needs a new API. Neither it nor its callers are reported.
func (c *Client) Resolve(id string) string {
	item, _ := c.resolve(context.Background(), id)
	return item.GetName()
}

// resolve is the helper Resolve wraps.
func (c *Client) resolve(ctx context.Context, id string) (*catalogpb.Item, error) {
	if id != "" {
		return nil, nil
	}
	return fetch(ctx, c.rpc, "default")
}

// resolveAll calls the API without a twin: silent.
func (c *Client) resolveAll(ids []string) {
	for _, id := range ids {
		_ = c.Resolve(id)
	}
}

// Tag derives a ctx with no deadline; callers in other packages know so from its Returned fact.
func Tag(ctx context.Context) context.Context {
	return metadata.AppendToOutgoingContext(ctx, "x-tag", "1")
}

// Decode fetches an item and converts it; generic, so its callers use an instance.
func Decode[T any](ctx context.Context, c *Client, id string, conv func(*catalogpb.Item) T) (T, error) { // want Decode:`needsDeadline\(0: Client.Item → CatalogClient.GetItem\)`
	item, err := c.Item(ctx, id)
	if err != nil {
		var zero T
		return zero, err
	}
	return conv(item), nil
}

// Root returns a new root with outgoing metadata: no deadline. Callers in other packages
// know so from its Returned fact.
func Root() context.Context {
	return metadata.AppendToOutgoingContext(context.Background(), "x-tag", "root")
}
