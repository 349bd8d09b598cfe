package meta

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"

	"example.test/storage/gen/storagepb"
	"example.test/storage/internal/kv"
	"google.golang.org/protobuf/proto"
)

// ErrNoRegion is returned when no region covers a key.
var ErrNoRegion = errors.New("meta: no region covers key")

// RegionManager keeps the region table, persisted in a kv.Store and cached
// in memory.
type RegionManager struct {
	store kv.Store

	mu   sync.RWMutex
	byID map[uint64]*storagepb.Region
}

// NewRegionManager returns a manager over store.
func NewRegionManager(store kv.Store) *RegionManager {
	return &RegionManager{store: store, byID: map[uint64]*storagepb.Region{}}
}

func regionKey(id uint64) []byte { return []byte(fmt.Sprintf("region/%020d", id)) }

// Lookup finds the region covering key.
func (m *RegionManager) Lookup(ctx context.Context, key []byte) (*storagepb.Region, error) {
	var found *storagepb.Region
	var decodeErr error
	err := m.store.Scan(ctx, []byte("region/"), []byte("region0"), func(_, v []byte) bool {
		r := &storagepb.Region{}
		if decodeErr = proto.Unmarshal(v, r); decodeErr != nil {
			return false
		}
		if bytes.Compare(key, r.GetStartKey()) >= 0 && (len(r.GetEndKey()) == 0 || bytes.Compare(key, r.GetEndKey()) < 0) {
			found = r
			return false
		}
		return true
	})
	if err == nil {
		err = decodeErr
	}
	if err != nil {
		return nil, err
	}
	if found == nil {
		return nil, ErrNoRegion
	}
	m.remember(found)
	return found, nil
}

func (m *RegionManager) remember(r *storagepb.Region) {
	m.mu.Lock()
	m.byID[r.GetId()] = r
	m.mu.Unlock()
}

// region returns the cached region id; with load it reads a missing one from
// the store on a budget of its own, so that the cache is filled even when the
// caller gives up.
func (m *RegionManager) region(ctx context.Context, id uint64, load bool) (*storagepb.Region, error) {
	m.mu.RLock()
	r := m.byID[id]
	m.mu.RUnlock()
	if r != nil || !load {
		return r, nil
	}
	return m.loadRegion(context.Background(), id)
}

func (m *RegionManager) loadRegion(ctx context.Context, id uint64) (*storagepb.Region, error) {
	v, _, err := m.store.Get(ctx, regionKey(id))
	if err != nil {
		return nil, err
	}
	r := &storagepb.Region{}
	if err := proto.Unmarshal(v, r); err != nil {
		return nil, err
	}
	m.remember(r)
	return r, nil
}

// Observe records the state a region's leader reports.
func (m *RegionManager) Observe(ctx context.Context, r *storagepb.Region) error {
	m.mu.RLock()
	old := m.byID[r.GetId()]
	m.mu.RUnlock()
	if old != nil && old.GetVersion() >= r.GetVersion() {
		return nil
	}
	b, err := proto.Marshal(r)
	if err != nil {
		return err
	}
	if _, err := m.store.Put(ctx, regionKey(r.GetId()), b); err != nil {
		return err
	}
	m.remember(r)
	return nil
}

// MarkStale forgets the leadership of storeID for every cached region.
func (m *RegionManager) MarkStale(ctx context.Context, storeID uint64) {
	m.mu.Lock()
	var changed []*storagepb.Region
	for _, r := range m.byID {
		if r.GetLeaderStore() == storeID {
			c := proto.Clone(r).(*storagepb.Region)
			c.LeaderStore = 0
			changed = append(changed, c)
		}
	}
	m.mu.Unlock()
	for _, r := range changed {
		_ = m.Observe(ctx, r)
	}
}
