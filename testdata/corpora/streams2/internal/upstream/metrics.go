package upstream

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// Metrics is the client of the metrics API that keeps per-topic byte counts.
type Metrics struct {
	base string
	http *http.Client
}

// NewMetrics returns a Metrics client for the API at base.
func NewMetrics(base string) *Metrics {
	return &Metrics{
		base: base,
		http: &http.Client{
			Timeout: 30, // BUG: deadlinemath
			Transport: &http.Transport{
				MaxIdleConnsPerHost:   8,
				IdleConnTimeout:       90 * time.Second, // OK: has a unit
				TLSHandshakeTimeout:   10 * time.Second, // OK: has a unit
				ExpectContinueTimeout: 0,                // OK: zero
			},
		},
	}
}

// HTTP returns the client, for handlers that build their own requests.
func (m *Metrics) HTTP() *http.Client { return m.http }

// URL returns the address of a path of the API.
func (m *Metrics) URL(path string, q url.Values) string {
	return m.base + path + "?" + q.Encode()
}

// TopicBytes asks how many bytes a topic holds. The metrics API stops scanning its shards once
// the time in X-Timeout-Ms is spent and answers with what it has.
func (m *Metrics) TopicBytes(ctx context.Context, topic string) (int64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, m.URL("/v1/bytes", url.Values{"topic": {topic}}), nil)
	if err != nil {
		return 0, err
	}
	dl, _ := ctx.Deadline()
	remaining := dl.Sub(time.Now()) // BUG: deadlinemath
	req.Header.Set("X-Timeout-Ms", strconv.FormatInt(remaining.Milliseconds(), 10))
	resp, err := m.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("metrics: %s", resp.Status)
	}
	var out struct {
		Bytes int64 `json:"bytes"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return 0, err
	}
	return out.Bytes, nil
}

// Subscribers asks how many subscribers a topic has across the fleet.
func (m *Metrics) Subscribers(ctx context.Context, topic string) (int64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, m.URL("/v1/subscribers", url.Values{"topic": {topic}}), nil)
	if err != nil {
		return 0, err
	}
	if dl, ok := ctx.Deadline(); ok {
		req.Header.Set("X-Timeout-Ms", strconv.FormatInt(dl.Sub(time.Now()).Milliseconds(), 10)) // OK: ok checked
	}
	resp, err := m.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var out struct {
		Subscribers int64 `json:"subscribers"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return 0, err
	}
	return out.Subscribers, nil
}
