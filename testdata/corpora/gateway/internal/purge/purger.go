// Package purge removes cached responses from the cache sidecar and tells the
// CDN to drop them too.
package purge

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"example.test/gateway/internal/platform/kv"
)

// Purger purges by key prefix.
type Purger struct {
	kv     *kv.Client
	cdnURL string
	client *http.Client
}

// New returns a purger.
func New(c *kv.Client, cdnURL string, client *http.Client) *Purger {
	return &Purger{kv: c, cdnURL: cdnURL, client: client}
}

// Count returns how many cached responses start with prefix.
func (p *Purger) Count(ctx context.Context, prefix string) (int64, error) {
	raw, err := p.kv.GetContext(ctx, "count:resp:"+prefix)
	if errors.Is(err, kv.ErrMiss) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	var n int64
	_, err = fmt.Sscan(string(raw), &n)
	return n, err
}

// Purge drops everything under prefix, locally and at the CDN.
func (p *Purger) Purge(ctx context.Context, prefix string) (int64, error) {
	n, err := p.kv.DeletePrefixContext(ctx, "resp:"+prefix)
	if err != nil {
		return 0, fmt.Errorf("purge: local: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.cdnURL+"/purge?prefix="+url.QueryEscape(prefix), nil)
	if err != nil {
		return n, err
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return n, fmt.Errorf("purge: cdn: %w", err)
	}
	resp.Body.Close()
	return n, nil
}
