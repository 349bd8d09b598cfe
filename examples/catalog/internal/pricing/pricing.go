// Package pricing is a client of the HTTP pricing service, which quotes the
// current price of a SKU.
package pricing

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

// Quote is the price of one SKU.
type Quote struct {
	SKU         string `json:"sku"`
	AmountCents int64  `json:"amount_cents"`
	Currency    string `json:"currency"`
}

// Client calls the pricing service at a base URL.
type Client struct {
	baseURL string
	http    *http.Client
	timeout time.Duration
}

// NewClient returns a client of the pricing service at baseURL. Lookup
// gives each of its requests the budget timeout.
func NewClient(baseURL string, hc *http.Client, timeout time.Duration) *Client {
	return &Client{baseURL: baseURL, http: hc, timeout: timeout}
}

// Quote asks the pricing service for the current price of sku. The request
// ends when ctx does.
func (c *Client) Quote(ctx context.Context, sku string) (Quote, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.baseURL+"/v1/quotes/"+url.PathEscape(sku), nil)
	if err != nil {
		return Quote{}, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return Quote{}, fmt.Errorf("quote %s: %w", sku, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return Quote{}, fmt.Errorf("quote %s: pricing service answered %s", sku, resp.Status)
	}
	var q Quote
	if err := json.NewDecoder(resp.Body).Decode(&q); err != nil {
		return Quote{}, fmt.Errorf("quote %s: %w", sku, err)
	}
	return q, nil
}

// Lookup is Quote for callers that have no context at hand, such as start-up
// checks: the request gets the client's own timeout.
func (c *Client) Lookup(sku string) (Quote, error) {
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	return c.Quote(ctx, sku)
}
