package greet

import (
	"context"
	"sync"
)

// MemoryVisits keeps the visit counts in memory. It is safe for concurrent use.
type MemoryVisits struct {
	mu     sync.Mutex
	counts map[string]int64
}

// NewMemoryVisits returns an empty MemoryVisits.
func NewMemoryVisits() *MemoryVisits {
	return &MemoryVisits{counts: make(map[string]int64)}
}

// Record implements Visits.
func (m *MemoryVisits) Record(ctx context.Context, name string) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.counts[name]++
	return m.counts[name], nil
}

// Forget implements Visits.
func (m *MemoryVisits) Forget(ctx context.Context, name string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.counts, name)
	return nil
}
