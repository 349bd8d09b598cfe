package util

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// StoreDirectory caches partner stores for a few minutes.
type StoreDirectory struct {
	base string
	ttl  time.Duration

	mu    sync.Mutex
	cache map[string]cachedStore
}

type cachedStore struct {
	st  *Store
	exp time.Time
}

// NewStoreDirectory returns a directory backed by the partner API at base.
func NewStoreDirectory(base string) *StoreDirectory {
	if base == "" {
		base = partnerBaseURL
	}
	return &StoreDirectory{base: base, ttl: 5 * time.Minute, cache: map[string]cachedStore{}}
}

func (d *StoreDirectory) cached(id string) (*Store, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	c, ok := d.cache[id]
	if !ok || time.Now().After(c.exp) {
		return nil, false
	}
	return c.st, true
}

func (d *StoreDirectory) put(st *Store) {
	d.mu.Lock()
	d.cache[st.ID] = cachedStore{st: st, exp: time.Now().Add(d.ttl)}
	d.mu.Unlock()
}

// Lookup returns a store by id.
func (d *StoreDirectory) Lookup(id string) (*Store, error) {
	if st, ok := d.cached(id); ok {
		return st, nil
	}
	resp, err := HTTP.Get(d.base + "/stores/" + url.PathEscape(id))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return d.decode(id, resp)
}

// LookupContext is Lookup with a ctx.
func (d *StoreDirectory) LookupContext(ctx context.Context, id string) (*Store, error) {
	if st, ok := d.cached(id); ok {
		return st, nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, d.base+"/stores/"+url.PathEscape(id), nil)
	if err != nil {
		return nil, err
	}
	resp, err := HTTP.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return d.decode(id, resp)
}

func (d *StoreDirectory) decode(id string, resp *http.Response) (*Store, error) {
	if resp.StatusCode == http.StatusNotFound {
		return nil, fmt.Errorf("store %s: not found", id)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("store %s: %s", id, resp.Status)
	}
	var st Store
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		return nil, err
	}
	d.put(&st)
	return &st, nil
}
