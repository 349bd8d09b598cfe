package client

import (
	"context"
	"net/http"

	"example.com/gen/catalogpb"
)

// ServeItem is an HTTP handler: its request carries the caller's ctx (r.Context()), so it is
// no convenience API that takes none — the root it passes is its own decision, reported here.
func (c *Client) ServeItem(w http.ResponseWriter, r *http.Request) {
	item, err := c.rpc.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: r.URL.Query().Get("id")}) // want `RPC CatalogClient\.GetItem has no deadline`
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	_, _ = w.Write([]byte(item.GetName()))
}

// A Job hands its holder the ctx it runs under.
type Job struct{ ctx context.Context }

// Context returns the job's ctx.
func (j *Job) Context() context.Context { return j.ctx }

// Run is given a job, and with it a ctx: reported here, as ServeItem is.
func (c *Client) Run(j *Job) { // (no noCtxAPI fact)
	_, _ = c.rpc.GetItem(context.TODO(), &catalogpb.GetItemRequest{Id: "job"}) // want `RPC CatalogClient\.GetItem has no deadline`
}

// Lookup takes a value whose Context method needs an argument: no ctx of its caller's.
func (c *Client) Lookup(k Keyed) string { // want Lookup:`noCtxAPI\(context.Background\(\): CatalogClient.GetItem\)`
	item, _ := c.rpc.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: k.Key()})
	return item.GetName()
}

// A Keyed value names an item; its Context method makes one.
type Keyed interface {
	Key() string
	Context(parent context.Context) context.Context
}
