package topo

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
)

// Conn is the connection to one topology store.
type Conn interface {
	Get(ctx context.Context, path string) ([]byte, Version, error)
	Update(ctx context.Context, path string, data []byte, version Version) (Version, error)
	List(ctx context.Context, dirPath string) ([]string, error)
	Lock(ctx context.Context, dirPath, contents string) (LockDescriptor, error)
	Delete(ctx context.Context, path string, version Version) error
}

// LockDescriptor is a lock held in the store.
type LockDescriptor interface {
	Check(ctx context.Context) error
	Unlock(ctx context.Context) error
}

// httpConn talks to a consul-style KV HTTP API.
type httpConn struct {
	client *http.Client
	base   string
}

func (c *httpConn) do(ctx context.Context, method, p string, q url.Values, body []byte) ([]byte, Version, error) {
	u := c.base + "/v1/kv/" + strings.TrimPrefix(p, "/") + "?" + q.Encode()
	req, err := http.NewRequestWithContext(ctx, method, u, bytes.NewReader(body))
	if err != nil {
		return nil, 0, err
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	switch {
	case err != nil:
		return nil, 0, err
	case resp.StatusCode == http.StatusNotFound:
		return nil, 0, ErrNoNode
	case resp.StatusCode == http.StatusConflict:
		return nil, 0, ErrBadVersion
	case resp.StatusCode != http.StatusOK:
		return nil, 0, fmt.Errorf("topo: %s %s: %s", method, p, resp.Status)
	}
	v, _ := strconv.ParseInt(resp.Header.Get("X-Consul-Index"), 10, 64)
	return data, Version(v), nil
}

func casQuery(version Version) url.Values {
	if version == 0 {
		return url.Values{}
	}
	return url.Values{"cas": {strconv.FormatInt(int64(version), 10)}}
}

func (c *httpConn) Get(ctx context.Context, p string) ([]byte, Version, error) {
	return c.do(ctx, http.MethodGet, p, url.Values{"raw": {"true"}}, nil)
}

func (c *httpConn) Update(ctx context.Context, p string, data []byte, version Version) (Version, error) {
	_, v, err := c.do(ctx, http.MethodPut, p, casQuery(version), data)
	return v, err
}

func (c *httpConn) Delete(ctx context.Context, p string, version Version) error {
	_, _, err := c.do(ctx, http.MethodDelete, p, casQuery(version), nil)
	return err
}

func (c *httpConn) List(ctx context.Context, dirPath string) ([]string, error) {
	data, _, err := c.do(ctx, http.MethodGet, dirPath+"/", url.Values{"keys": {"true"}, "separator": {"/"}}, nil)
	if err != nil {
		return nil, err
	}
	var keys []string
	if err := json.Unmarshal(data, &keys); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		k = strings.TrimSuffix(k, "/")
		out = append(out, k[strings.LastIndex(k, "/")+1:])
	}
	return out, nil
}

func (c *httpConn) Lock(ctx context.Context, dirPath, contents string) (LockDescriptor, error) {
	l := &httpLock{conn: c, path: dirPath + "/.lock"}
	if _, _, err := c.do(ctx, http.MethodPut, l.path, url.Values{"acquire": {"session"}}, []byte(contents)); err != nil {
		return nil, fmt.Errorf("lock %s: %w", dirPath, err)
	}
	return l, nil
}

type httpLock struct {
	conn *httpConn
	path string
}

func (l *httpLock) Check(ctx context.Context) error {
	_, _, err := l.conn.Get(ctx, l.path)
	return err
}

func (l *httpLock) Unlock(ctx context.Context) error {
	_, _, err := l.conn.do(ctx, http.MethodPut, l.path, url.Values{"release": {"session"}}, nil)
	return err
}

// memConn is an in-memory store, for single-process setups and tests.
type memConn struct {
	mu    sync.Mutex
	nodes map[string][]byte
	vers  map[string]Version
	locks map[string]bool
}

// NewMemConn returns an empty in-memory store.
func NewMemConn() Conn {
	return &memConn{nodes: map[string][]byte{}, vers: map[string]Version{}, locks: map[string]bool{}}
}

func (m *memConn) Get(_ context.Context, p string) ([]byte, Version, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	data, ok := m.nodes[p]
	if !ok {
		return nil, 0, ErrNoNode
	}
	return data, m.vers[p], nil
}

func (m *memConn) Update(_ context.Context, p string, data []byte, version Version) (Version, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if version != 0 && m.vers[p] != version {
		return 0, ErrBadVersion
	}
	m.nodes[p] = data
	m.vers[p]++
	return m.vers[p], nil
}

func (m *memConn) List(_ context.Context, dirPath string) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	seen := map[string]bool{}
	var out []string
	for p := range m.nodes {
		if rest, ok := strings.CutPrefix(p, dirPath+"/"); ok {
			if child, _, _ := strings.Cut(rest, "/"); !seen[child] {
				seen[child] = true
				out = append(out, child)
			}
		}
	}
	return out, nil
}

func (m *memConn) Delete(_ context.Context, p string, version Version) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if version != 0 && m.vers[p] != version {
		return ErrBadVersion
	}
	delete(m.nodes, p)
	delete(m.vers, p)
	return nil
}

func (m *memConn) Lock(_ context.Context, dirPath, _ string) (LockDescriptor, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.locks[dirPath] {
		return nil, fmt.Errorf("lock %s: already held", dirPath)
	}
	m.locks[dirPath] = true
	return &memLock{m: m, path: dirPath}, nil
}

type memLock struct {
	m    *memConn
	path string
}

func (l *memLock) Check(context.Context) error { return nil }

func (l *memLock) Unlock(context.Context) error {
	l.m.mu.Lock()
	defer l.m.mu.Unlock()
	delete(l.m.locks, l.path)
	return nil
}
