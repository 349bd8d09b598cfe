// Package objstore is the object-store client used for blocks, WAL
// checkpoints and the results cache.
package objstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"
)

// ErrObjectNotFound is returned for a missing object.
var ErrObjectNotFound = errors.New("object not found")

// Bucket is an object store.
type Bucket interface {
	Get(ctx context.Context, name string) ([]byte, error)
	Upload(ctx context.Context, name string, data []byte) error
	Delete(ctx context.Context, name string) error
	Iter(ctx context.Context, prefix string, f func(name string) error) error
}

// HTTPBucket talks to an S3-like HTTP endpoint.
type HTTPBucket struct {
	Endpoint string
	Client   *http.Client
}

// NewHTTPBucket returns a bucket on endpoint.
func NewHTTPBucket(endpoint string) *HTTPBucket {
	return &HTTPBucket{Endpoint: strings.TrimSuffix(endpoint, "/"), Client: &http.Client{}}
}

func (b *HTTPBucket) do(ctx context.Context, method, name string, body []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, b.Endpoint+"/"+name, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	resp, err := b.Client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return nil, ErrObjectNotFound
	}
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("objstore: %s %s: %s", method, name, resp.Status)
	}
	return io.ReadAll(resp.Body)
}

// Get reads an object.
func (b *HTTPBucket) Get(ctx context.Context, name string) ([]byte, error) {
	return b.do(ctx, http.MethodGet, name, nil)
}

// Upload writes an object.
func (b *HTTPBucket) Upload(ctx context.Context, name string, data []byte) error {
	_, err := b.do(ctx, http.MethodPut, name, data)
	return err
}

// Delete removes an object.
func (b *HTTPBucket) Delete(ctx context.Context, name string) error {
	_, err := b.do(ctx, http.MethodDelete, name, nil)
	if errors.Is(err, ErrObjectNotFound) {
		return nil
	}
	return err
}

// Iter calls f for each object under prefix.
func (b *HTTPBucket) Iter(ctx context.Context, prefix string, f func(name string) error) error {
	data, err := b.do(ctx, http.MethodGet, "?list-type=2&prefix="+prefix, nil)
	if err != nil {
		return err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" {
			continue
		}
		if err := f(line); err != nil {
			return err
		}
	}
	return nil
}

// HeadContext reports whether the object exists.
func (b *HTTPBucket) HeadContext(ctx context.Context, name string) (bool, error) {
	_, err := b.do(ctx, http.MethodHead, name, nil)
	if errors.Is(err, ErrObjectNotFound) {
		return false, nil
	}
	return err == nil, err
}

// Head reports whether the object exists.
func (b *HTTPBucket) Head(name string) (bool, error) {
	return b.HeadContext(context.Background(), name) // OK: ctxbackground — library convenience wrapper, not a request scope
}

// InMem is an in-memory bucket for single-binary mode.
type InMem struct {
	mu      sync.RWMutex
	objects map[string][]byte
}

// NewInMem returns an empty in-memory bucket.
func NewInMem() *InMem { return &InMem{objects: map[string][]byte{}} }

func (m *InMem) Get(_ context.Context, name string) ([]byte, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	d, ok := m.objects[name]
	if !ok {
		return nil, ErrObjectNotFound
	}
	return append([]byte(nil), d...), nil
}

func (m *InMem) Upload(_ context.Context, name string, data []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.objects[name] = append([]byte(nil), data...)
	return nil
}

func (m *InMem) Delete(_ context.Context, name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.objects, name)
	return nil
}

func (m *InMem) Iter(_ context.Context, prefix string, f func(string) error) error {
	m.mu.RLock()
	var names []string
	for n := range m.objects {
		if strings.HasPrefix(n, prefix) {
			names = append(names, n)
		}
	}
	m.mu.RUnlock()
	sort.Strings(names)
	for _, n := range names {
		if err := f(n); err != nil {
			return err
		}
	}
	return nil
}
