// Package ring is the consistent hash ring that places tenants' traces on
// ingesters, kept up to date by memberlist heartbeats.
package ring

import (
	"context"
	"errors"
	"hash/fnv"
	"sort"
	"sync"
	"time"
)

// ErrEmptyRing is returned when no healthy instance is known.
var ErrEmptyRing = errors.New("empty ring")

// InstanceDesc describes one ring member.
type InstanceDesc struct {
	ID        string
	Addr      string
	Tokens    []uint32
	Heartbeat time.Time
	State     string
}

// Healthy reports whether the instance heartbeated within timeout.
func (d InstanceDesc) Healthy(now time.Time, timeout time.Duration) bool {
	return d.State == "ACTIVE" && now.Sub(d.Heartbeat) <= timeout
}

type tokenRef struct {
	token uint32
	id    string
}

// Ring is the hash ring.
type Ring struct {
	mu               sync.RWMutex
	instances        map[string]InstanceDesc
	tokens           []tokenRef
	heartbeatTimeout time.Duration
}

// New returns an empty ring.
func New(heartbeatTimeout time.Duration) *Ring {
	return &Ring{instances: map[string]InstanceDesc{}, heartbeatTimeout: heartbeatTimeout}
}

// Update merges members into the ring.
func (r *Ring) Update(members []InstanceDesc) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, m := range members {
		if cur, ok := r.instances[m.ID]; ok && cur.Heartbeat.After(m.Heartbeat) {
			continue
		}
		r.instances[m.ID] = m
	}
	r.tokens = r.tokens[:0]
	for id, in := range r.instances {
		for _, t := range in.Tokens {
			r.tokens = append(r.tokens, tokenRef{token: t, id: id})
		}
	}
	sort.Slice(r.tokens, func(i, j int) bool { return r.tokens[i].token < r.tokens[j].token })
}

// Members returns a snapshot of the members.
func (r *Ring) Members() []InstanceDesc {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]InstanceDesc, 0, len(r.instances))
	for _, in := range r.instances {
		out = append(out, in)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// TokenFor hashes a tenant and trace ID to a ring token.
func TokenFor(tenant string, traceID []byte) uint32 {
	h := fnv.New32a()
	_, _ = h.Write([]byte(tenant))
	_, _ = h.Write(traceID)
	return h.Sum32()
}

// Get returns the rf instances owning key.
func (r *Ring) Get(key uint32, rf int) (ReplicationSet, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if len(r.tokens) == 0 {
		return ReplicationSet{}, ErrEmptyRing
	}
	now := time.Now()
	i := sort.Search(len(r.tokens), func(i int) bool { return r.tokens[i].token >= key })
	seen := map[string]bool{}
	var rs ReplicationSet
	for n := 0; n < len(r.tokens) && len(rs.Instances) < rf; n++ {
		ref := r.tokens[(i+n)%len(r.tokens)]
		if seen[ref.id] {
			continue
		}
		seen[ref.id] = true
		if in := r.instances[ref.id]; in.Healthy(now, r.heartbeatTimeout) {
			rs.Instances = append(rs.Instances, in)
		}
	}
	if len(rs.Instances) == 0 {
		return ReplicationSet{}, ErrEmptyRing
	}
	rs.MaxErrors = (len(rs.Instances) - 1) / 2
	return rs, nil
}

// All returns every healthy instance, tolerating no error.
func (r *Ring) All() ReplicationSet {
	now := time.Now()
	var rs ReplicationSet
	for _, in := range r.Members() {
		if in.Healthy(now, r.heartbeatTimeout) {
			rs.Instances = append(rs.Instances, in)
		}
	}
	return rs
}

// ReplicationSet is the set of instances a request goes to.
type ReplicationSet struct {
	Instances []InstanceDesc
	MaxErrors int
}

// Do runs f on every instance in parallel and returns once all finished or
// more than MaxErrors failed.
func (rs ReplicationSet) Do(ctx context.Context, f func(context.Context, InstanceDesc) error) error {
	errs := make(chan error, len(rs.Instances))
	for _, in := range rs.Instances {
		go func() { errs <- f(ctx, in) }()
	}
	var failed []error
	for range rs.Instances {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-errs:
			if err != nil {
				failed = append(failed, err)
				if len(failed) > rs.MaxErrors {
					return errors.Join(failed...)
				}
			}
		}
	}
	return nil
}
