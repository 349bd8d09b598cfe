// Package billing is a client of the billing service's plan API.
package billing

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
)

// Plan is a billing plan.
type Plan struct {
	Name         string `json:"name"`
	RateLimitRPS int32  `json:"rate_limit_rps"`
}

// Client calls the billing service.
type Client struct {
	base   string
	client *http.Client
}

// NewClient returns a billing client.
func NewClient(base string, client *http.Client) *Client {
	return &Client{base: base, client: client}
}

// PlanFor returns the current plan of account.
func (c *Client) PlanFor(ctx context.Context, account string) (*Plan, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/accounts/"+url.PathEscape(account)+"/plan", nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("billing: plan for %s: %w", account, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("billing: plan for %s: %s", account, resp.Status)
	}
	var p Plan
	if err := json.NewDecoder(resp.Body).Decode(&p); err != nil {
		return nil, err
	}
	return &p, nil
}
