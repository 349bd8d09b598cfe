// Package fxrates is the Acme foreign-exchange rates client.
package fxrates

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// Client fetches spot rates. It is safe for concurrent use.
type Client struct {
	base     string
	clientID string
	secret   string
	hc       *http.Client

	mu      sync.Mutex
	token   string
	expires time.Time
}

// New returns a client for the given API base URL.
func New(base, clientID, secret string) *Client {
	return &Client{base: base, clientID: clientID, secret: secret, hc: &http.Client{Timeout: 15 * time.Second}}
}

// Rate returns the spot rate to convert one unit of from into to.
func (c *Client) Rate(ctx context.Context, from, to string) (float64, error) {
	if from == to {
		return 1, nil
	}
	tok, err := c.accessToken()
	if err != nil {
		return 0, err
	}
	u := fmt.Sprintf("%s/v2/rates?from=%s&to=%s", c.base, url.QueryEscape(from), url.QueryEscape(to))
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := c.hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("fxrates: %s", resp.Status)
	}
	var body struct {
		Rate float64 `json:"rate"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return 0, err
	}
	return body.Rate, nil
}

// Convert converts an amount in minor units.
func (c *Client) Convert(ctx context.Context, amountMinor int64, from, to string) (int64, error) {
	r, err := c.Rate(ctx, from, to)
	if err != nil {
		return 0, err
	}
	return int64(float64(amountMinor) * r), nil
}

func (c *Client) accessToken() (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.token != "" && time.Now().Before(c.expires) {
		return c.token, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {c.clientID}, "client_secret": {c.secret}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/oauth/token", nil)
	if err != nil {
		return "", err
	}
	req.URL.RawQuery = form.Encode()
	resp, err := c.hc.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var tok struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int    `json:"expires_in"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&tok); err != nil {
		return "", err
	}
	if tok.AccessToken == "" {
		return "", errors.New("fxrates: empty token")
	}
	c.token = tok.AccessToken
	c.expires = time.Now().Add(time.Duration(tok.ExpiresIn) * time.Second)
	return c.token, nil
}
