// Package kv is the storage engine abstraction used by the meta and store
// servers: a SQL-backed store, an in-memory store and a remote store over the
// StoreService of another node.
package kv

import (
	"bytes"
	"context"
	"errors"
	"sort"
	"sync"
)

// ErrNotFound is returned when a key does not exist.
var ErrNotFound = errors.New("kv: not found")

// Store is a versioned ordered key-value store.
type Store interface {
	Get(ctx context.Context, key []byte) ([]byte, uint64, error)
	Put(ctx context.Context, key, val []byte) (uint64, error)
	Delete(ctx context.Context, key []byte) error
	Scan(ctx context.Context, start, end []byte, fn func(k, v []byte) bool) error
}

// MemStore is an in-memory Store, used for the embedded single-node mode.
type MemStore struct {
	mu   sync.RWMutex
	data map[string][]byte
	ver  uint64
}

// NewMemStore returns an empty MemStore.
func NewMemStore() *MemStore { return &MemStore{data: map[string][]byte{}} }

func (m *MemStore) Get(_ context.Context, key []byte) ([]byte, uint64, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	v, ok := m.data[string(key)]
	if !ok {
		return nil, 0, ErrNotFound
	}
	return v, m.ver, nil
}

func (m *MemStore) Put(_ context.Context, key, val []byte) (uint64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.ver++
	m.data[string(key)] = bytes.Clone(val)
	return m.ver, nil
}

func (m *MemStore) Delete(_ context.Context, key []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.data, string(key))
	return nil
}

func (m *MemStore) Scan(_ context.Context, start, end []byte, fn func(k, v []byte) bool) error {
	m.mu.RLock()
	keys := make([]string, 0, len(m.data))
	for k := range m.data {
		if k >= string(start) && (len(end) == 0 || k < string(end)) {
			keys = append(keys, k)
		}
	}
	m.mu.RUnlock()
	sort.Strings(keys)
	for _, k := range keys {
		m.mu.RLock()
		v := m.data[k]
		m.mu.RUnlock()
		if !fn([]byte(k), v) {
			break
		}
	}
	return nil
}
