// Package periodic is a command whose verbs share one deadline-less ctx, one of them a canary
// that bounds each of its cycles: a per-cycle deadline is the job's schedule, not a sign that
// the other verbs forgot one.
package periodic

import (
	"context"
	"time"

	"example.com/gen/catalogpb"
)

// Probe runs a canary on a ticker, giving each cycle the time until the next tick: a deadline
// derived anew on each turn is the job's schedule, not a budget the command forgot on its
// other verbs. Those verbs are one decision, made where the ctx is.
func Probe(c catalogpb.CatalogClient, verb string, every time.Duration) {
	ctx := context.Background() // want `the ctx from context\.Background\(\) reaches 2 calls on separate paths, none with a deadline; add one here with context\.WithTimeout`
	switch verb {
	case "get":
		_, _ = c.GetItem(ctx, &catalogpb.GetItemRequest{Id: "g"})
	case "refresh":
		_ = refresh(ctx, c, "r")
	case "canary":
		canary(ctx, c, every)
	}
}

// refresh passes its ctx to an RPC.
func refresh(ctx context.Context, c catalogpb.CatalogClient, id string) error {
	_, err := c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id})
	return err
}

// canary checks the service on every tick, each check bounded by the next tick.
func canary(ctx context.Context, c catalogpb.CatalogClient, every time.Duration) {
	ticker := time.NewTicker(every)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case n := <-ticker.C:
			cctx, cancel := context.WithDeadline(ctx, n.Add(every))
			_ = refresh(cctx, c, "canary")
			cancel()
		}
	}
}

// Polls bounds one verb's calls with one deadline before its loop: a budget the command gives,
// so the verbs without one are oversights, each its own finding.
func Polls(c catalogpb.CatalogClient, verb string, ids []string) {
	ctx := context.Background()
	switch verb {
	case "get":
		_, _ = c.GetItem(ctx, &catalogpb.GetItemRequest{Id: "g"}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\)\); add one with context\.WithTimeout`
	case "refresh":
		_ = refresh(ctx, c, "r") // want `periodic\.refresh calls RPC CatalogClient\.GetItem with no deadline`
	case "all":
		tctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		for _, id := range ids {
			_ = refresh(tctx, c, id)
		}
	}
}

// Retries bounds each attempt of one verb anew on each turn, in the function itself: the other
// verbs are still one decision.
func Retries(c catalogpb.CatalogClient, verb string) {
	ctx := context.Background() // want `the ctx from context\.Background\(\) reaches 2 calls on separate paths, none with a deadline; add one here with context\.WithTimeout`
	switch verb {
	case "get":
		_, _ = c.GetItem(ctx, &catalogpb.GetItemRequest{Id: "g"})
	case "refresh":
		_ = refresh(ctx, c, "r")
	case "retry":
		for i := 0; i < 3; i++ {
			actx, cancel := context.WithTimeout(ctx, time.Second)
			err := refresh(actx, c, "x")
			cancel()
			if err == nil {
				return
			}
		}
	}
}
