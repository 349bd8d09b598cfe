// Package geo answers location questions for dispatch: addresses, routes and arrival times.
// It prefers the offline tile server when one is configured and falls back to the maps API.
package geo

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"example.test/fleet/internal/maps"
	"example.test/fleet/internal/store"
)

// Config selects the data sources.
type Config struct {
	TileServer string // base URL of the offline tile server; empty to use the maps API
	AvgSpeed   float64
}

// Client is the dispatch-facing geo API.
type Client struct {
	maps  *maps.Client
	tiles *TileServer

	reverse func(ctx context.Context, p store.Point) (string, error)
	eta     func(ctx context.Context, from, to store.Point) (time.Duration, error)

	mu    sync.Mutex
	addrs map[store.Point]string
}

// New builds a Client. The data source for each question is chosen here, once.
func New(cfg Config, mc *maps.Client) *Client {
	c := &Client{maps: mc, addrs: make(map[store.Point]string)}
	if cfg.TileServer != "" {
		c.tiles = NewTileServer(cfg.TileServer)
		c.reverse = c.reverseFromTiles
	} else {
		c.reverse = c.reverseFromAPI
	}
	speed := cfg.AvgSpeed
	if speed <= 0 {
		speed = 32
	}
	c.eta = func(ctx context.Context, from, to store.Point) (time.Duration, error) {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		km := haversineKm(from, to) * 1.3
		return time.Duration(km / speed * float64(time.Hour)), nil
	}
	return c
}

// ReverseGeocode returns a printable address for p.
func (c *Client) ReverseGeocode(ctx context.Context, p store.Point) (string, error) {
	c.mu.Lock()
	a, ok := c.addrs[p]
	c.mu.Unlock()
	if ok {
		return a, nil
	}
	a, err := c.reverse(ctx, p)
	if err != nil {
		return "", fmt.Errorf("reverse geocode %v: %w", p, err)
	}
	c.mu.Lock()
	c.addrs[p] = a
	c.mu.Unlock()
	return a, nil
}

// EstimateETA returns a quick straight-line arrival estimate.
func (c *Client) EstimateETA(ctx context.Context, from, to store.Point) (time.Duration, error) {
	return c.eta(ctx, from, to)
}

// Route returns the driving distance and duration between two points.
func (c *Client) Route(ctx context.Context, from, to store.Point) (km float64, d time.Duration, err error) {
	r, err := c.maps.Directions(ctx, maps.LatLng{Lat: from.Lat, Lng: from.Lng}, maps.LatLng{Lat: to.Lat, Lng: to.Lng})
	if err != nil {
		return 0, 0, err
	}
	return r.DistanceMeters / 1000, time.Duration(r.DurationSeconds * float64(time.Second)), nil
}

func (c *Client) reverseFromAPI(ctx context.Context, p store.Point) (string, error) {
	a, err := c.maps.ReverseGeocode(ctx, p.Lat, p.Lng)
	if err != nil {
		return "", err
	}
	return a.Formatted, nil
}

func (c *Client) reverseFromTiles(_ context.Context, p store.Point) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	return c.tiles.Lookup(ctx, p)
}

func haversineKm(a, b store.Point) float64 {
	const r = 6371.0
	rad := func(d float64) float64 { return d * math.Pi / 180 }
	dLat, dLng := rad(b.Lat-a.Lat), rad(b.Lng-a.Lng)
	h := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(rad(a.Lat))*math.Cos(rad(b.Lat))*math.Sin(dLng/2)*math.Sin(dLng/2)
	return 2 * r * math.Asin(math.Sqrt(h))
}
