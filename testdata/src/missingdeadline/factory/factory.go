// Package factory is an interactive CLI whose commands all take their ctx from one factory: a
// root the user cancels with Ctrl-C, with no deadline. That is one decision, made in
// getContext, and reported once — at the first call in source order, the others as related
// positions — not once per command. A command that makes its own root is its own decision.
package factory

import (
	"context"
	"os"
	"os/signal"

	"example.com/gen/catalogpb"
	"example.com/gen/legacypb"
)

// getContext is the ctx of every command: cancelled on interrupt, never on a deadline.
func getContext() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, os.Interrupt)
		<-sig
		cancel()
	}()
	return ctx
}

func ping(c legacypb.LegacyClient) error {
	_, err := c.Ping(getContext(), &legacypb.PingRequest{}) // want `RPC LegacyClient\.Ping has no deadline \(ctx from context\.Background\(\)\); add one with context\.WithTimeout; it reaches 2 more calls`
	return err
}

func describe(c catalogpb.CatalogClient) error {
	ctx := getContext()
	_, err := c.GetItem(ctx, &catalogpb.GetItemRequest{Id: "catalog"})
	return err
}

func refresh(c catalogpb.CatalogClient, id string) error {
	_, err := c.GetItem(getContext(), &catalogpb.GetItemRequest{Id: id})
	return err
}

// probe makes its own root: a decision of its own.
func probe(c catalogpb.CatalogClient) error {
	_, err := c.GetItem(context.Background(), &catalogpb.GetItemRequest{}) // want `RPC CatalogClient.GetItem has no deadline \(ctx from context.Background\(\)`
	return err
}

var _ = []any{ping, describe, refresh, probe}
