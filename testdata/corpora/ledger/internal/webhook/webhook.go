// Package webhook delivers events to the partner's HTTP endpoint.
package webhook

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"time"
)

// Client posts JSON payloads to a fixed URL.
type Client struct {
	url string
	hc  *http.Client
}

// New returns a webhook client. The http.Client has an overall timeout as a
// backstop; callers are still expected to pass a bounded ctx.
func New(url string) *Client {
	return &Client{
		url: url,
		hc: &http.Client{
			Timeout: 10 * time.Second,
			Transport: &http.Transport{
				MaxIdleConnsPerHost:   16,
				IdleConnTimeout:       90 * time.Second,
				ResponseHeaderTimeout: 5 * time.Second,
			},
		},
	}
}

// StatusError is returned for non-2xx responses.
type StatusError struct{ Code int }

func (e StatusError) Error() string { return fmt.Sprintf("webhook: status %d", e.Code) }

// Send posts payload under ctx.
func (c *Client) Send(ctx context.Context, topic string, payload []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(payload))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Topic", topic)
	return c.do(req)
}

// Ping checks that the partner endpoint is reachable. It is called from the
// health handler, which has its own ctx.
func (c *Client) Ping(ctx context.Context) error {
	req, err := http.NewRequest(http.MethodHead, c.url, nil) // BUG: ctxless — B11: NewRequest without the ctx Ping is given
	if err != nil {
		return err
	}
	return c.do(req)
}

func (c *Client) do(req *http.Request) error {
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode/100 != 2 {
		return StatusError{Code: resp.StatusCode}
	}
	return nil
}

// Unbounded is a client without an overall timeout used for large
// notification payloads.
func Unbounded(url string) *Client {
	return &Client{url: url, hc: &http.Client{}}
}
