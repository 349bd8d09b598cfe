// Package xds is the control plane's aggregated discovery service: a snapshot cache of
// per-node configuration served over state-of-the-world and delta streams.
package xds

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"

	"example.test/mesh/gen/discoveryv1"
)

// Snapshot is a consistent set of resources for one node, by type URL.
type Snapshot struct {
	Version   string
	Resources map[string][]*discoveryv1.Resource
}

type watch struct {
	typeURL string
	version string
	ch      chan *discoveryv1.DiscoveryResponse
}

// SnapshotCache holds the latest snapshot of every node and the open watches on them.
type SnapshotCache struct {
	mu        sync.Mutex
	snapshots map[string]*Snapshot
	watches   map[string]map[int64]*watch
	nextID    int64
	nonce     atomic.Int64
	ready     atomic.Bool
}

// NewSnapshotCache returns an empty cache.
func NewSnapshotCache() *SnapshotCache {
	return &SnapshotCache{snapshots: map[string]*Snapshot{}, watches: map[string]map[int64]*watch{}}
}

// Ready reports whether the first full snapshot set has been built.
func (c *SnapshotCache) Ready() bool { return c.ready.Load() }

// MarkReady is called by the reconciler after its first pass.
func (c *SnapshotCache) MarkReady() { c.ready.Store(true) }

// SetSnapshot replaces a node's snapshot and answers the watches it satisfies.
func (c *SnapshotCache) SetSnapshot(node string, snap *Snapshot) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.snapshots[node] = snap
	for id, w := range c.watches[node] {
		if w.version == snap.Version {
			continue
		}
		select {
		case w.ch <- c.respond(snap, w.typeURL):
			delete(c.watches[node], id)
		default:
		}
	}
}

func (c *SnapshotCache) respond(snap *Snapshot, typeURL string) *discoveryv1.DiscoveryResponse {
	return &discoveryv1.DiscoveryResponse{
		VersionInfo: snap.Version,
		Resources:   snap.Resources[typeURL],
		TypeUrl:     typeURL,
		Nonce:       strconv.FormatInt(c.nonce.Add(1), 10),
	}
}

// CreateWatch returns a channel that receives the node's resources of typeURL once their
// version differs from version. The watch is dropped when ctx is done.
func (c *SnapshotCache) CreateWatch(ctx context.Context, node, typeURL, version string) <-chan *discoveryv1.DiscoveryResponse {
	ch := make(chan *discoveryv1.DiscoveryResponse, 1)
	c.mu.Lock()
	if snap, ok := c.snapshots[node]; ok && snap.Version != version {
		ch <- c.respond(snap, typeURL)
		c.mu.Unlock()
		return ch
	}
	id := c.nextID
	c.nextID++
	if c.watches[node] == nil {
		c.watches[node] = map[int64]*watch{}
	}
	c.watches[node][id] = &watch{typeURL: typeURL, version: version, ch: ch}
	c.mu.Unlock()
	go func() {
		<-ctx.Done()
		c.mu.Lock()
		delete(c.watches[node], id)
		c.mu.Unlock()
	}()
	return ch
}

// Fetch returns the node's current resources of typeURL.
func (c *SnapshotCache) Fetch(node, typeURL string) (*discoveryv1.DiscoveryResponse, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	snap, ok := c.snapshots[node]
	if !ok {
		return nil, false
	}
	return c.respond(snap, typeURL), true
}

// Nodes returns the nodes that have a snapshot.
func (c *SnapshotCache) Nodes() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]string, 0, len(c.snapshots))
	for n := range c.snapshots {
		out = append(out, n)
	}
	return out
}
