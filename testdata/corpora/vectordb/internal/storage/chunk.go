// Package storage holds the chunk manager (segment files in an object store
// reached over HTTP) and the meta KV (coordinator metadata in SQL).
package storage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// ErrNotExist is returned for a missing object.
var ErrNotExist = errors.New("object does not exist")

// ChunkManager reads and writes segment files in the object store.
type ChunkManager struct {
	endpoint string
	bucket   string
	hc       *http.Client
}

// NewChunkManager returns a chunk manager on the bucket at endpoint.
func NewChunkManager(endpoint, bucket string) *ChunkManager {
	return &ChunkManager{
		endpoint: strings.TrimRight(endpoint, "/"),
		bucket:   bucket,
		hc:       &http.Client{Timeout: 0, Transport: &http.Transport{IdleConnTimeout: 90 * time.Second}},
	}
}

func (cm *ChunkManager) url(path string) string {
	return cm.endpoint + "/" + cm.bucket + "/" + strings.TrimLeft(path, "/")
}

func (cm *ChunkManager) do(ctx context.Context, method, path string, body []byte) (*http.Response, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, cm.url(path), rd)
	if err != nil {
		return nil, err
	}
	resp, err := cm.hc.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusNotFound {
		resp.Body.Close()
		return nil, fmt.Errorf("%s: %w", path, ErrNotExist)
	}
	if resp.StatusCode >= 300 {
		resp.Body.Close()
		return nil, fmt.Errorf("%s %s: %s", method, path, resp.Status)
	}
	return resp, nil
}

// Read returns the object at path.
func (cm *ChunkManager) Read(ctx context.Context, path string) ([]byte, error) {
	resp, err := cm.do(ctx, http.MethodGet, path, nil)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

// Write stores data at path.
func (cm *ChunkManager) Write(ctx context.Context, path string, data []byte) error {
	resp, err := cm.do(ctx, http.MethodPut, path, data)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Remove deletes the object at path.
func (cm *ChunkManager) Remove(ctx context.Context, path string) error {
	resp, err := cm.do(ctx, http.MethodDelete, path, nil)
	if err != nil {
		if errors.Is(err, ErrNotExist) {
			return nil
		}
		return err
	}
	return resp.Body.Close()
}

// SizeContext returns the size of the object at path.
func (cm *ChunkManager) SizeContext(ctx context.Context, path string) (int64, error) {
	resp, err := cm.do(ctx, http.MethodHead, path, nil)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return strconv.ParseInt(resp.Header.Get("Content-Length"), 10, 64)
}

// Size is SizeContext for callers without a context.
func (cm *ChunkManager) Size(path string) (int64, error) {
	return cm.SizeContext(context.TODO(), path)
}

// MultiWrite writes every object and, if one fails, removes the ones already
// written so that no half segment is left behind.
func (cm *ChunkManager) MultiWrite(ctx context.Context, objs map[string][]byte) error {
	written := make([]string, 0, len(objs))
	for p, data := range objs {
		if err := cm.Write(ctx, p, data); err != nil {
			rctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // OK: ctxbackground — bounded rollback after the failure, beside work done with ctx
			defer cancel()
			for _, w := range written {
				_ = cm.Remove(rctx, w)
			}
			return fmt.Errorf("multi write %s: %w", p, err)
		}
		written = append(written, p)
	}
	return nil
}

// ReleaseRef drops a reference on path, counted in a sidecar object. A
// reference released on a failure path must be released even when the
// operation that took it was cancelled.
func (cm *ChunkManager) ReleaseRef(ctx context.Context, path string) error {
	rctx := context.WithoutCancel(ctx) // OK: detach — ctx of a library function called from anywhere, not a request scope's ctx
	return cm.Remove(rctx, path+".ref")
}
