// Package httpx wraps the HTTP APIs the order service depends on.
package httpx

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// Client talks to the FX-rates and fraud-scoring HTTP APIs.
type Client struct {
	base string
	hc   *http.Client
}

// New returns a client for base.
func New(base string) *Client {
	return &Client{base: base, hc: &http.Client{Timeout: 10 * time.Second}}
}

// Rate returns the conversion rate from USD to cur.
func (c *Client) Rate(ctx context.Context, cur string) (float64, error) {
	var out struct {
		Rate float64 `json:"rate"`
	}
	if err := c.getJSON(ctx, "/rates/"+cur, &out); err != nil {
		return 0, err
	}
	return out.Rate, nil
}

// FraudScore asks the scoring API about a customer. Scoring is slow and
// cached upstream, so it uses its own context so a warm cache entry is
// written even if our caller is gone.
func (c *Client) FraudScore(ctx context.Context, customerID string) (float64, error) {
	var out struct {
		Score float64 `json:"score"`
	}
	if err := c.getJSON(context.Background(), "/fraud/"+customerID, &out); err != nil {
		return 0, err
	}
	return out.Score, nil
}

// Health is used by readiness probes.
func (c *Client) Health(ctx context.Context) error {
	if ctx == nil {
		ctx = context.Background() // OK: nil fallback
	}
	return c.getJSON(ctx, "/healthz", &struct{}{})
}

func (c *Client) getJSON(ctx context.Context, path string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", path, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(v)
}
