// Package app is a worker that calls the catalog through the generated interface. Which value
// the interface holds is wired in main, out of the worker's sight; the catalog's own client
// library has an implementation that bounds every call, so a deadline-less ctx there may well
// get one. A client the worker builds itself with the generated constructor gets none.
package app

import (
	"context"
	"time"

	"google.golang.org/grpc"

	"example.com/gen/catalogpb"
	"missingdeadline/wrapped/client"
)

// Worker refreshes items.
type Worker struct {
	catalog catalogpb.CatalogClient
}

// NewWorker returns a worker on the client it is given.
func NewWorker(c catalogpb.CatalogClient) *Worker { return &Worker{catalog: c} }

// Refresh looks every item up again: the client it was given may be client.Client.
func (w *Worker) Refresh(ids []string) {
	for _, id := range ids {
		_, _ = w.catalog.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id})
	}
}

// Lookup takes the client as an argument: the same.
func Lookup(c catalogpb.CatalogClient, id string) (*catalogpb.Item, error) {
	return c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id})
}

// direct builds the generated client itself: nothing bounds its calls.
func direct(conn *grpc.ClientConn, id string) (*catalogpb.Item, error) {
	c := catalogpb.NewCatalogClient(conn)
	return c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient\.GetItem has no deadline`
}

// counted wraps the client in the counting passthrough, in sight: no deadline on the way.
func counted(conn *grpc.ClientConn, id string) (*catalogpb.Item, error) {
	p := &client.Passthrough{CatalogClient: catalogpb.NewCatalogClient(conn)}
	return p.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id}) // want `RPC Passthrough\.GetItem has no deadline`
}

// bounded calls the bounding client by its concrete type: it is no bare RPC.
func bounded(conn *grpc.ClientConn, id string) (*catalogpb.Item, error) {
	return client.NewBounded(conn, time.Second).GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id})
}

// retrying calls a client whose helper bounds every call it runs: no bare RPC either.
func retrying(conn *grpc.ClientConn, id string) (*catalogpb.Item, error) {
	return client.NewRetrying(conn, time.Second).GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id})
}

// hedged calls a client whose helper bounds one attempt of two.
func hedged(h client.Hedged, id string) (*catalogpb.Item, error) {
	return h.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id}) // want `RPC Hedged\.GetItem has no deadline`
}

// handing calls a client that keeps the literal its helper bounds.
func handing(h *client.Handing, id string) (*catalogpb.Item, error) {
	return h.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id}) // want `RPC Handing\.GetItem has no deadline`
}

// Wire is the program's wiring.
func Wire(conn *grpc.ClientConn) *Worker {
	return NewWorker(client.New(conn, time.Second))
}

var _, _, _, _, _, _ = direct, counted, bounded, retrying, hedged, handing
