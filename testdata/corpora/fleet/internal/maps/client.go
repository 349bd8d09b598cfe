// Package maps is a small client for the routing and geocoding provider.
package maps

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os/exec"
	"strconv"
	"time"
)

// LatLng is a coordinate as the provider spells it.
type LatLng struct {
	Lat float64 `json:"lat"`
	Lng float64 `json:"lng"`
}

// Route is the provider's answer to a directions query.
type Route struct {
	DistanceMeters  float64 `json:"distance_meters"`
	DurationSeconds float64 `json:"duration_seconds"`
	Polyline        string  `json:"polyline"`
}

// Address is a reverse-geocoding result.
type Address struct {
	Formatted string `json:"formatted"`
	City      string `json:"city"`
	Country   string `json:"country"`
}

// Client talks to the provider's REST API.
type Client struct {
	base    *url.URL
	http    *http.Client
	apiKey  string
	timeout time.Duration
	retries int
}

// New returns a client for the API at baseURL.
func New(baseURL, apiKey string, timeout time.Duration) (*Client, error) {
	u, err := url.Parse(baseURL)
	if err != nil {
		return nil, fmt.Errorf("maps: bad base url: %w", err)
	}
	return &Client{base: u, http: &http.Client{}, apiKey: apiKey, timeout: timeout, retries: 3}, nil
}

// ReverseGeocode returns the street address at a coordinate.
func (c *Client) ReverseGeocode(ctx context.Context, lat, lng float64) (Address, error) {
	q := url.Values{"lat": {ftoa(lat)}, "lng": {ftoa(lng)}}
	var out Address
	err := c.getJSON(ctx, "/v2/reverse", q, &out)
	return out, err
}

// Directions returns the driving route between two points.
func (c *Client) Directions(_ context.Context, from, to LatLng) (*Route, error) {
	q := url.Values{
		"origin":      {ftoa(from.Lat) + "," + ftoa(from.Lng)},
		"destination": {ftoa(to.Lat) + "," + ftoa(to.Lng)},
		"mode":        {"driving"},
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	var out Route
	if err := c.getJSON(ctx, "/v2/directions", q, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Ping checks that the provider is reachable. Used by the readiness probe at start-up.
func (c *Client) Ping() error {
	req, err := http.NewRequest(http.MethodGet, c.base.JoinPath("/v2/status").String(), nil) // OK
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("maps: status %s", resp.Status)
	}
	return nil
}

// ProbeTCP checks raw connectivity to the provider's edge, for the diagnostics page.
func (c *Client) ProbeTCP() error {
	conn, err := net.Dial("tcp", net.JoinHostPort(c.base.Hostname(), "443")) // OK
	if err != nil {
		return err
	}
	return conn.Close()
}

// SyncTiles refreshes the offline tile cache with the provider's sync tool.
func (c *Client) SyncTiles(dir string) error {
	cmd := exec.Command("tilesync", "--key", c.apiKey, "--out", dir, c.base.String()) // OK
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("tilesync: %v: %s", err, out)
	}
	return nil
}

var errRetryable = errors.New("maps: retryable")

func (c *Client) getJSON(ctx context.Context, path string, q url.Values, out any) error {
	q.Set("key", c.apiKey)
	u := c.base.JoinPath(path)
	u.RawQuery = q.Encode()
	var err error
	for attempt := 0; attempt <= c.retries; attempt++ {
		if attempt > 0 {
			time.Sleep(time.Duration(attempt) * 200 * time.Millisecond) // OK
		}
		err = c.fetch(ctx, u.String(), out)
		if !errors.Is(err, errRetryable) {
			return err
		}
	}
	return err
}

func (c *Client) fetch(ctx context.Context, u string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return errRetryable
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
		return errRetryable
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("maps: %s: %s", u, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'f', 6, 64) }
