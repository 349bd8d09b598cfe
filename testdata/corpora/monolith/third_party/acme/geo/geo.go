// Package geo resolves postcodes to coordinates and delivery zones.
package geo

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

// Location is a resolved postcode.
type Location struct {
	Postcode string  `json:"postcode"`
	Country  string  `json:"country"`
	Lat      float64 `json:"lat"`
	Lng      float64 `json:"lng"`
	Zone     string  `json:"zone"`
}

// Client talks to the Acme geocoding API.
type Client struct {
	base string
	key  string
	hc   *http.Client
}

// New returns a geocoding client.
func New(base, key string) *Client {
	return &Client{base: base, key: key, hc: &http.Client{Timeout: 5 * time.Second}}
}

// Lookup resolves a postcode.
func (c *Client) Lookup(postcode string) (*Location, error) {
	u := fmt.Sprintf("%s/v1/postcodes/%s?key=%s", c.base, url.PathEscape(postcode), url.QueryEscape(c.key))
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("geo: lookup %q: %s", postcode, resp.Status)
	}
	var loc Location
	if err := json.NewDecoder(resp.Body).Decode(&loc); err != nil {
		return nil, err
	}
	return &loc, nil
}

// Distance returns the great-circle distance in kilometres between two postcodes.
func (c *Client) Distance(ctx context.Context, from, to string) (float64, error) {
	a, err := c.Lookup(from)
	if err != nil {
		return 0, err
	}
	b, err := c.Lookup(to)
	if err != nil {
		return 0, err
	}
	return haversine(a.Lat, a.Lng, b.Lat, b.Lng), nil
}
