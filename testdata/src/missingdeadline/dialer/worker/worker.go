// Package worker reconciles items in the background, with clients from a client set behind its
// interface: the set's connections give every unary call a default deadline, so a call with a
// root ctx is bounded there; a Plain set's are not.
package worker

import (
	"context"

	"example.com/gen/catalogpb"
	"missingdeadline/dialer/clientset"
)

type Worker struct {
	set   clientset.Clientset
	plain clientset.Plain
}

func New(set clientset.Clientset, plain clientset.Plain) *Worker {
	return &Worker{set: set, plain: plain}
}

// sync reads an item through the set: its interceptor bounds the call.
func (w *Worker) sync(id string) error {
	closer, client, err := w.set.NewCatalogClient()
	if err != nil {
		return err
	}
	defer closer.Close()
	_, err = client.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id}) // the set's interceptor sets a deadline
	return err
}

// ping asks the set's own Pinger service: its interceptor bounds the call.
func (w *Worker) ping(id string) error {
	closer, client, err := w.set.NewPingerClient()
	if err != nil {
		return err
	}
	defer closer.Close()
	_, err = client.Ping(context.Background(), &catalogpb.GetItemRequest{Id: id}) // the set's interceptor sets a deadline
	return err
}

// audit reads an item through the Plain set: nothing bounds the call.
func (w *Worker) audit(id string) error {
	closer, client, err := w.plain.Open()
	if err != nil {
		return err
	}
	defer closer.Close()
	_, err = client.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient.GetItem has no deadline \(ctx from context.Background\(\)`
	return err
}

// Run reconciles the items, and audits them.
func (w *Worker) Run(ctx context.Context, ids []string) error {
	for _, id := range ids {
		if err := w.sync(id); err != nil {
			return err
		}
		if err := w.ping(id); err != nil {
			return err
		}
		if err := w.audit(id); err != nil {
			return err
		}
	}
	return ctx.Err()
}
