// Package coord holds the coordinators: root (collections, ids,
// timestamps, credentials, the registry), data (segments, flush, compaction,
// garbage collection) and query (loading, shard leaders), and the connect-go
// admin service.
package coord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"google.golang.org/protobuf/proto"

	"example.test/vectordb/gen/vdbpb"
	"example.test/vectordb/internal/grpcx"
	"example.test/vectordb/internal/log"
	"example.test/vectordb/internal/storage"
)

var errExists = errors.New("already exists")

func collectionPrefix(db string) string { return "collection/" + db + "/" }

func collectionKey(db, name string) string { return collectionPrefix(db) + name }

// metaTable caches collection metadata kept in the meta KV.
type metaTable struct {
	kv        *storage.MetaKV
	mu        sync.RWMutex
	byName    map[string]*vdbpb.CollectionInfo
	clusterID atomic.Pointer[string]
}

func newMetaTable(kv *storage.MetaKV) *metaTable {
	return &metaTable{kv: kv, byName: map[string]*vdbpb.CollectionInfo{}}
}

// ClusterID reads the cluster's id once and keeps it.
func (m *metaTable) ClusterID(ctx context.Context) (string, error) {
	if p := m.clusterID.Load(); p != nil {
		return *p, nil
	}
	id, err := m.kv.Load(ctx, "cluster/id")
	if errors.Is(err, storage.ErrKeyNotFound) {
		id = log.NewTraceID()
		err = m.kv.Save(ctx, "cluster/id", id)
	}
	if err != nil {
		return "", err
	}
	m.clusterID.Store(&id)
	return id, nil
}

func (m *metaTable) GetCollectionByName(ctx context.Context, db, name string) (*vdbpb.CollectionInfo, error) {
	key := collectionKey(db, name)
	m.mu.RLock()
	info, ok := m.byName[key]
	m.mu.RUnlock()
	if ok {
		return info, nil
	}
	raw, err := m.kv.Load(ctx, key)
	if errors.Is(err, storage.ErrKeyNotFound) {
		return nil, fmt.Errorf("%s.%s: %w", db, name, grpcx.ErrCollectionNotFound)
	}
	if err != nil {
		return nil, err
	}
	info = &vdbpb.CollectionInfo{}
	if err := json.Unmarshal([]byte(raw), info); err != nil {
		return nil, err
	}
	m.mu.Lock()
	m.byName[key] = info
	m.mu.Unlock()
	return info, nil
}

func (m *metaTable) AddCollection(ctx context.Context, info *vdbpb.CollectionInfo) error {
	key := collectionKey(info.GetDb(), info.GetName())
	m.mu.RLock()
	_, ok := m.byName[key]
	m.mu.RUnlock()
	if ok {
		return fmt.Errorf("collection %s: %w", info.GetName(), errExists)
	}
	raw, _ := json.Marshal(info)
	if err := m.kv.Save(ctx, key, string(raw)); err != nil {
		return err
	}
	m.mu.Lock()
	m.byName[key] = info
	m.mu.Unlock()
	return nil
}

func (m *metaTable) DropCollection(ctx context.Context, info *vdbpb.CollectionInfo) error {
	key := collectionKey(info.GetDb(), info.GetName())
	if err := m.kv.Remove(ctx, key); err != nil {
		return err
	}
	m.mu.Lock()
	delete(m.byName, key)
	m.mu.Unlock()
	return nil
}

// idAllocator hands out ids from blocks reserved in the meta KV.
type idAllocator struct {
	kv        *storage.MetaKV
	mu        sync.Mutex
	next, end int64
	block     int64
}

func (a *idAllocator) Alloc(ctx context.Context, n int64) (int64, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.next+n > a.end {
		end := a.end + max(a.block, n)
		if err := a.kv.Save(ctx, "id/end", fmt.Sprint(end)); err != nil {
			return 0, err
		}
		if a.next < a.end-a.block {
			a.next = a.end
		}
		a.end = end
	}
	begin := a.next
	a.next += n
	return begin, nil
}

// tso hands out increasing timestamps.
type tso struct{ last atomic.Uint64 }

func (t *tso) Next(n uint32) uint64 { return t.last.Add(uint64(n)) }

// segmentMeta is the data coordinator's view of segments.
type segmentMeta struct {
	kv   *storage.MetaKV
	mu   sync.RWMutex
	segs map[int64]*vdbpb.SegmentInfo
	next atomic.Int64
}

func newSegmentMeta(kv *storage.MetaKV) *segmentMeta {
	return &segmentMeta{kv: kv, segs: map[int64]*vdbpb.SegmentInfo{}}
}

// Get answers from memory.
func (m *segmentMeta) Get(_ context.Context, id int64) (*vdbpb.SegmentInfo, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	s, ok := m.segs[id]
	if !ok {
		return nil, fmt.Errorf("segment %d: %w", id, grpcx.ErrSegmentNotFound)
	}
	return s, nil
}

func (m *segmentMeta) List(collID int64) []*vdbpb.SegmentInfo {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var out []*vdbpb.SegmentInfo
	for _, s := range m.segs {
		if s.GetCollectionId() == collID {
			out = append(out, s)
		}
	}
	return out
}

func (m *segmentMeta) Persist(ctx context.Context, seg *vdbpb.SegmentInfo) error {
	raw, _ := json.Marshal(seg)
	if err := m.kv.Save(ctx, fmt.Sprintf("segment/%d/%d", seg.GetCollectionId(), seg.GetId()), string(raw)); err != nil {
		return err
	}
	m.mu.Lock()
	m.segs[seg.GetId()] = seg
	m.mu.Unlock()
	return nil
}

// SealSegments seals the growing segments of a channel and returns their ids.
func (m *segmentMeta) SealSegments(ctx context.Context, collID int64, vchannel string) ([]int64, error) {
	var sealed []int64
	for _, s := range m.List(collID) {
		if s.GetVchannel() != vchannel || s.GetState() != "Growing" {
			continue
		}
		cp := proto.Clone(s).(*vdbpb.SegmentInfo)
		cp.State = "Sealed"
		if err := m.Persist(ctx, cp); err != nil {
			return sealed, err
		}
		sealed = append(sealed, s.GetId())
	}
	return sealed, nil
}

func (m *segmentMeta) dropCollection(ctx context.Context, collID int64) ([]string, error) {
	var paths []string
	for _, s := range m.List(collID) {
		if err := m.kv.Remove(ctx, fmt.Sprintf("segment/%d/%d", collID, s.GetId())); err != nil {
			return paths, err
		}
		paths = append(paths, s.GetBinlogPaths()...)
		m.mu.Lock()
		delete(m.segs, s.GetId())
		m.mu.Unlock()
	}
	return paths, nil
}
