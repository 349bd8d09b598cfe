package store

import (
	"context"
	"sync"
	"time"
)

// JobCache is a read cache in front of the store.
type JobCache interface {
	Lookup(ctx context.Context, id string) (*Job, bool)
	Remember(ctx context.Context, j *Job)
}

// MemCache is an in-memory JobCache with a TTL.
type MemCache struct {
	mu   sync.RWMutex
	ttl  time.Duration
	jobs map[string]memEntry
}

type memEntry struct {
	job *Job
	at  time.Time
}

func NewMemCache(ttl time.Duration) *MemCache {
	return &MemCache{ttl: ttl, jobs: map[string]memEntry{}}
}

func (c *MemCache) Lookup(_ context.Context, id string) (*Job, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	e, ok := c.jobs[id]
	if !ok || time.Since(e.at) > c.ttl {
		return nil, false
	}
	return e.job, true
}

func (c *MemCache) Remember(_ context.Context, j *Job) {
	c.mu.Lock()
	c.jobs[j.ID] = memEntry{job: j, at: time.Now()}
	c.mu.Unlock()
}

// MemStore is a Store kept entirely in memory (dev mode and the read replica).
type MemStore struct {
	mu   sync.RWMutex
	jobs map[string]*Job
}

func NewMemStore() *MemStore { return &MemStore{jobs: map[string]*Job{}} }

func (m *MemStore) GetJob(_ context.Context, id string) (*Job, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	j, ok := m.jobs[id]
	if !ok {
		return nil, ErrNotFound
	}
	return j, nil
}

func (m *MemStore) PutJob(_ context.Context, j *Job) error {
	m.mu.Lock()
	m.jobs[j.ID] = j
	m.mu.Unlock()
	return nil
}

func (m *MemStore) DeleteJob(_ context.Context, id string) error {
	m.mu.Lock()
	delete(m.jobs, id)
	m.mu.Unlock()
	return nil
}

func (m *MemStore) ListJobs(_ context.Context, namespace string) ([]*Job, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var out []*Job
	for _, j := range m.jobs {
		if j.Namespace == namespace {
			out = append(out, j)
		}
	}
	return out, nil
}
