package proxy

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
)

// Get reads an object from the blob store.
func (b *Backend) Get(key string) ([]byte, error) {
	return b.GetContext(context.Background(), key)
}

// GetContext reads an object from the blob store under ctx.
func (b *Backend) GetContext(ctx context.Context, key string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.base+"/"+key, nil)
	if err != nil {
		return nil, err
	}
	resp, err := b.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("blob store: %s", resp.Status)
	}
	return io.ReadAll(resp.Body)
}

// PutContext writes an object to the blob store.
func (b *Backend) PutContext(ctx context.Context, key string, data []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, b.base+"/"+key, bytes.NewReader(data))
	if err != nil {
		return err
	}
	resp, err := b.http.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
