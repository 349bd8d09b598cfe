// Package vaultclient is the typed client the operator tools use to talk to
// the vault.
package vaultclient

import (
	"context"
	"time"

	"google.golang.org/grpc"

	vaultv1 "example.test/torture/gen/vault/v1"
)

const compactTimeout = 2 * time.Minute

// Client wraps the generated client.
type Client struct {
	raw vaultv1.VaultServiceClient
}

// New returns a client on cc.
func New(cc grpc.ClientConnInterface) *Client {
	return &Client{raw: vaultv1.NewVaultServiceClient(cc)}
}

// Raw returns the generated client.
func (c *Client) Raw() vaultv1.VaultServiceClient { return c.raw }

// Put writes a secret and returns the new version.
func (c *Client) Put(ctx context.Context, id string, value []byte) (int64, error) {
	resp, err := c.raw.PutSecret(ctx, &vaultv1.PutSecretRequest{Secret: &vaultv1.Secret{Id: id, Value: value}}) // OK
	if err != nil {
		return 0, err
	}
	return resp.GetVersion(), nil
}

// Compact purges a tenant's deleted secrets. Compaction is slow, so it gets
// a generous budget of its own on top of the caller's.
func (c *Client) Compact(ctx context.Context, tenant string) (int32, error) {
	ctx, cancel := context.WithTimeout(ctx, compactTimeout)
	defer cancel()
	resp, err := c.raw.Compact(ctx, &vaultv1.CompactRequest{Tenant: tenant}) // OK
	if err != nil {
		return 0, err
	}
	return resp.GetRemoved(), nil
}

// Call invokes any unary method of the generated client with ctx.
func Call[Req, Resp any](ctx context.Context, call func(context.Context, Req, ...grpc.CallOption) (Resp, error), req Req, opts ...grpc.CallOption) (Resp, error) {
	return call(ctx, req, opts...)
}
