// Package ops holds multi-step fleet operations built on the edge client.
package ops

import (
	"context"
	"fmt"
	"log"
	"time"

	"example.test/gateway/internal/edgeclient"
)

// Rollout drains nodes one after the other, so that a config rollout restarts
// them without dropping traffic. It stops at the first failure.
func Rollout(ctx context.Context, c *edgeclient.Client, nodes []string, grace time.Duration) error {
	for i, n := range nodes {
		moved, err := c.DrainNode(ctx, n, grace)
		if err != nil {
			return fmt.Errorf("rollout stopped at %s (%d/%d): %w", n, i+1, len(nodes), err)
		}
		log.Printf("drained %s: %d connections moved", n, moved)
	}
	return nil
}

// Verify checks that every route id resolves, giving each lookup its own
// short budget.
func Verify(ctx context.Context, c *edgeclient.Client, ids []string, each time.Duration) []error {
	var errs []error
	for _, id := range ids {
		vctx, cancel := context.WithTimeout(ctx, each)
		if _, err := c.GetRoute(vctx, id); err != nil {
			errs = append(errs, fmt.Errorf("route %s: %w", id, err))
		}
		cancel()
	}
	return errs
}
