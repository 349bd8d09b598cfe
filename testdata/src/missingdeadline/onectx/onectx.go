// Package onectx is a nightly job whose one deadline-less ctx reaches several RPCs: one
// decision (where the ctx is made), one finding, the other calls listed with it.
package onectx

import (
	"context"
	"time"

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

// Dispatch runs one RPC per verb, and no verb gives the ctx a deadline: the decision is where
// the ctx is made, one finding there, the verbs' calls listed with it.
func Dispatch(c catalogpb.CatalogClient, verb string) {
	ctx := context.Background() // want `the ctx from context\.Background\(\) reaches 2 calls on separate paths, none with a deadline; add one here with context\.WithTimeout`
	switch verb {
	case "refresh":
		_ = refresh(ctx, c, "r")
	case "get":
		_, _ = c.GetItem(ctx, &catalogpb.GetItemRequest{Id: "g"})
	}
}

// withBudget gives its ctx a deadline before the RPC.
func withBudget(ctx context.Context, c catalogpb.CatalogClient, id string) error {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	return refresh(ctx, c, id)
}

// budgeted hands its ctx on to a function that gives it a deadline.
func budgeted(ctx context.Context, c catalogpb.CatalogClient, id string) error {
	return withBudget(ctx, c, id)
}

// Mixed gives the ctx a deadline on one verb, in a helper two calls down: the verbs without
// one are oversights, each its own finding.
func Mixed(c catalogpb.CatalogClient, verb string) {
	ctx := context.Background()
	switch verb {
	case "get":
		_, _ = c.GetItem(ctx, &catalogpb.GetItemRequest{Id: "g"}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\)\); add one with context\.WithTimeout`
	case "refresh":
		_ = refresh(ctx, c, "r") // want `onectx\.refresh calls RPC CatalogClient\.GetItem with no deadline`
	case "budget":
		_ = budgeted(ctx, c, "b")
	}
}

// Inline gives the ctx a deadline in place on one verb: the same.
func Inline(c catalogpb.CatalogClient, verb string) {
	ctx := context.Background()
	if verb == "a" {
		_, _ = c.GetItem(ctx, &catalogpb.GetItemRequest{Id: "a"}) // want `RPC CatalogClient\.GetItem has no deadline`
		return
	}
	if verb == "b" {
		_ = refresh(ctx, c, "b") // want `onectx\.refresh calls RPC CatalogClient\.GetItem with no deadline`
		return
	}
	tctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	_, _ = c.GetItem(tctx, &catalogpb.GetItemRequest{Id: "c"})
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

// Verbs calls the RPC itself on each path, with no deadline on either: one decision, where the
// ctx is made.
func Verbs(c catalogpb.CatalogClient, verb string) {
	ctx := context.TODO() // want `the ctx from context\.TODO\(\) reaches 2 calls on separate paths, none with a deadline`
	if verb == "a" {
		_, _ = c.GetItem(ctx, &catalogpb.GetItemRequest{Id: "a"})
	} else {
		_, _ = c.GetItem(ctx, &catalogpb.GetItemRequest{Id: "b"})
	}
}

// Separate makes a ctx per verb: two decisions, two findings.
func Separate(c catalogpb.CatalogClient, verb string) {
	if verb == "a" {
		_, _ = c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: "a"}) // want `RPC CatalogClient\.GetItem has no deadline`
	} else {
		_, _ = c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: "b"}) // want `RPC CatalogClient\.GetItem has no deadline`
	}
}

// Steps runs its calls one after the other, some behind an if: a job's steps, each its own
// finding even with one ctx and no deadline anywhere.
func Steps(c catalogpb.CatalogClient, dryRun bool, ids []string) {
	ctx := context.Background()
	for _, id := range ids {
		if !dryRun {
			_, _ = c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient\.GetItem has no deadline`
		}
	}
	if !dryRun {
		_ = refresh(ctx, c, "last") // want `onectx\.refresh calls RPC CatalogClient\.GetItem with no deadline`
	}
}

// Shell reads command after command: a verb can run after another, each its own finding.
func Shell(c catalogpb.CatalogClient, verbs <-chan string) {
	ctx := context.Background()
	for verb := range verbs {
		switch verb {
		case "get":
			_, _ = c.GetItem(ctx, &catalogpb.GetItemRequest{Id: "g"}) // want `RPC CatalogClient\.GetItem has no deadline`
		case "refresh":
			_ = refresh(ctx, c, "r") // want `onectx\.refresh calls RPC CatalogClient\.GetItem with no deadline`
		}
	}
}
