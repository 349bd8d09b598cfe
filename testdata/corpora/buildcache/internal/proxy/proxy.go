// Package proxy forwards cache misses to an upstream cache and a blob store.
package proxy

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"example.test/buildcache/gen/bcv1"
	"example.test/buildcache/internal/obs"
	"google.golang.org/grpc"
)

// Backend is the upstream of a proxying cache.
type Backend struct {
	up      bcv1.ContentAddressableStorageClient
	http    *http.Client
	base    string
	misses  *obs.Counter
	timeout time.Duration
}

// New returns a backend over conn (upstream cache) and base (blob store URL).
func New(conn grpc.ClientConnInterface, base string) *Backend {
	return &Backend{
		up:      bcv1.NewContentAddressableStorageClient(conn),
		http:    &http.Client{Timeout: time.Minute},
		base:    base,
		misses:  obs.NewCounter("proxy_misses"),
		timeout: 30 * time.Second,
	}
}

// Fetch reads a blob missing locally from the upstream cache.
func (b *Backend) Fetch(ctx context.Context, d *bcv1.Digest) ([]byte, error) {
	obs.Log.Info(ctx, "proxy miss", "hash", d.GetHash())
	b.misses.Add(ctx, 1)
	uctx, cancel := context.WithTimeout(context.Background(), b.timeout)
	defer cancel()
	resp, err := b.up.BatchReadBlobs(uctx, &bcv1.BatchReadBlobsRequest{Digests: []*bcv1.Digest{d}})
	if err != nil {
		return nil, err
	}
	for _, bl := range resp.GetBlobs() {
		if bl.GetDigest().GetHash() == d.GetHash() {
			return bl.GetData(), nil
		}
	}
	return nil, fmt.Errorf("upstream has no %s", d.GetHash())
}

// Mirror forwards blobs to the upstream cache with the caller's ctx.
func (b *Backend) Mirror(ctx context.Context, blobs []*bcv1.Blob) error {
	_, err := b.up.BatchUpdateBlobs(ctx, &bcv1.BatchUpdateBlobsRequest{Blobs: blobs})
	return err
}

// Ping checks the upstream is reachable.
func (b *Backend) Ping() error {
	_, err := b.up.GetCapabilities(context.Background(), &bcv1.GetCapabilitiesRequest{}) // OK: missingdeadline — exported convenience API without a ctx: reported at its callers
	return err
}
