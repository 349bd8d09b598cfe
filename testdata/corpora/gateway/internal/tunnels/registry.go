// Package tunnels keeps the registry of open Tunnel streams so that a
// reconnecting client lands on the node that holds its upstream connection.
package tunnels

import (
	"context"
	"fmt"
	"time"

	"example.test/gateway/internal/platform/kv"
)

// Registry records which node owns which tunnel session.
type Registry struct {
	kv   *kv.Client
	node string
	ttl  time.Duration
}

// NewRegistry returns a registry for this node.
func NewRegistry(c *kv.Client, node string, ttl time.Duration) *Registry {
	return &Registry{kv: c, node: node, ttl: ttl}
}

// Open claims session id for this node.
func (r *Registry) Open(ctx context.Context, id string) error {
	if err := r.kv.SetContext(ctx, key(id), []byte(r.node), r.ttl); err != nil {
		return fmt.Errorf("tunnels: open %s: %w", id, err)
	}
	return nil
}

// Release gives session id up.
func (r *Registry) Release(ctx context.Context, id string) error {
	_, err := r.kv.DeletePrefixContext(ctx, key(id))
	return err
}

func key(id string) string { return "tunnel:" + id }
