// Package onectx is a nightly job whose one deadline-less ctx reaches several RPCs: one
// decision (where the ctx is made), one finding, the other calls listed with it.
package onectx

import (
	"context"

	"example.com/gen/catalogpb"
)

// refresh passes its ctx to an RPC.
func refresh(ctx context.Context, c catalogpb.CatalogClient, id string) error {
	_, err := c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id})
	return err
}

// Nightly makes one ctx and uses it three times: reported once, at the first call.
func Nightly(c catalogpb.CatalogClient) {
	ctx := context.Background()
	_, _ = c.GetItem(ctx, &catalogpb.GetItemRequest{Id: "a"}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\)\); add one with context\.WithTimeout; it reaches 2 more calls`
	_, _ = c.GetItem(ctx, &catalogpb.GetItemRequest{Id: "b"})
	_ = refresh(ctx, c, "c")

	// Another root is another decision.
	_, _ = c.GetItem(context.TODO(), &catalogpb.GetItemRequest{Id: "d"}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.TODO\(\)\); add one with context\.WithTimeout`
}

// Weekly suppresses its second call: the suppression is used, and that call is not listed.
func Weekly(c catalogpb.CatalogClient) {
	ctx := context.Background()
	_, _ = c.GetItem(ctx, &catalogpb.GetItemRequest{Id: "w"}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\)\); add one with context\.WithTimeout; it reaches 1 more call`
	//deadlinelint:ignore missingdeadline the archive call is bounded by the archive server itself
	_, _ = c.GetItem(ctx, &catalogpb.GetItemRequest{Id: "archive"})
	_ = refresh(ctx, c, "x")
}

// Dispatch runs one RPC per verb: separate paths, separate findings.
func Dispatch(c catalogpb.CatalogClient, verb string) {
	ctx := context.Background()
	switch verb {
	case "get":
		_, _ = c.GetItem(ctx, &catalogpb.GetItemRequest{Id: "g"}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\)\); add one with context\.WithTimeout`
	case "refresh":
		_ = refresh(ctx, c, "r") // want `onectx\.refresh calls RPC CatalogClient\.GetItem with no deadline \(ctx from context\.Background\(\)\); add one with context\.WithTimeout`
	}
}

// Beat waits in refresh on a timer and once more on stop: separate paths, but one RPC in one
// function with one ctx — one decision, one finding.
func Beat(c catalogpb.CatalogClient, tick <-chan struct{}, stop <-chan struct{}) {
	ctx := context.Background()
	for {
		select {
		case <-tick:
			_ = refresh(ctx, c, "beat") // want `onectx\.refresh calls RPC CatalogClient\.GetItem with no deadline \(ctx from context\.Background\(\)\); add one with context\.WithTimeout; it reaches 1 more call`
		case <-stop:
			_ = refresh(ctx, c, "last")
			return
		}
	}
}

// Verbs calls the RPC itself on each path: each verb is its own decision.
func Verbs(c catalogpb.CatalogClient, verb string) {
	ctx := context.Background()
	if verb == "a" {
		_, _ = c.GetItem(ctx, &catalogpb.GetItemRequest{Id: "a"}) // want `RPC CatalogClient\.GetItem has no deadline`
	} else {
		_, _ = c.GetItem(ctx, &catalogpb.GetItemRequest{Id: "b"}) // want `RPC CatalogClient\.GetItem has no deadline`
	}
}
