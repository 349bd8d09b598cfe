package store

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Shards holds one store per namespace, opened on first use and kept for the
// life of the process.
type Shards struct {
	dsnFor func(namespace string) string

	mu     sync.Mutex
	shards map[string]*SQLStore
}

func NewShards(dsnFor func(string) string) *Shards {
	return &Shards{dsnFor: dsnFor, shards: map[string]*SQLStore{}}
}

// For returns the namespace's store, opening it the first time.
func (s *Shards) For(ctx context.Context, namespace string) (*SQLStore, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st, ok := s.shards[namespace]; ok {
		return st, nil
	}
	st, err := s.open(namespace)
	if err != nil {
		return nil, err
	}
	s.shards[namespace] = st
	return st, nil
}

func (s *Shards) open(namespace string) (*SQLStore, error) {
	st, err := Open(s.dsnFor(namespace))
	if err != nil {
		return nil, err
	}
	// The shard is shared by every later request of the namespace: it must
	// not inherit the deadline of the one that happened to open it.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := st.DB().PingContext(ctx); err != nil {
		return nil, fmt.Errorf("shard %s: %w", namespace, err)
	}
	return st, nil
}

// Lookup finds job id in namespace. When load is false a missing shard is
// reported as not found instead of being opened.
func (s *Shards) Lookup(ctx context.Context, namespace, id string, load bool) (*Job, error) {
	if !load {
		s.mu.Lock()
		st, ok := s.shards[namespace]
		s.mu.Unlock()
		if !ok {
			return nil, ErrNotFound
		}
		return st.GetJob(ctx, id)
	}
	st, err := s.warm(namespace)
	if err != nil {
		return nil, err
	}
	return st.GetJob(ctx, id)
}

// warm opens the namespace's shard and primes its statement cache.
func (s *Shards) warm(namespace string) (*SQLStore, error) {
	st, err := s.For(context.Background(), namespace)
	if err != nil {
		return nil, err
	}
	_, err = st.ListJobs(context.Background(), namespace)
	return st, err
}
