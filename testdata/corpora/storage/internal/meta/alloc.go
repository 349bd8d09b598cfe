package meta

import (
	"context"
	"encoding/binary"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"example.test/storage/internal/kv"
)

const idStep = 1000

var idKey = []byte("alloc/id")

// IDAllocator hands out cluster-unique ids in windows persisted to the store.
type IDAllocator struct {
	store kv.Store

	once    sync.Once
	initErr error

	mu    sync.Mutex
	next  uint64
	limit uint64
}

// NewIDAllocator returns an allocator over store.
func NewIDAllocator(store kv.Store) *IDAllocator { return &IDAllocator{store: store} }

func (a *IDAllocator) loadBase(ctx context.Context) (uint64, error) {
	v, _, err := a.store.Get(ctx, idKey)
	if errors.Is(err, kv.ErrNotFound) {
		return 1, nil
	}
	if err != nil {
		return 0, err
	}
	return binary.BigEndian.Uint64(v), nil
}

// Alloc returns the first of n fresh ids.
func (a *IDAllocator) Alloc(ctx context.Context, n uint32) (uint64, error) {
	a.once.Do(func() {
		lctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		a.next, a.initErr = a.loadBase(lctx)
		a.limit = a.next
	})
	if a.initErr != nil {
		return 0, a.initErr
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.next+uint64(n) > a.limit {
		limit := a.limit + max(uint64(n), idStep)
		if _, err := a.store.Put(ctx, idKey, binary.BigEndian.AppendUint64(nil, limit)); err != nil {
			return 0, err
		}
		a.limit = limit
	}
	first := a.next
	a.next += uint64(n)
	return first, nil
}

var tsoKey = []byte("alloc/tso")

type tsoState struct {
	physical int64
	logical  int64
	limit    int64
}

// TSO is the timestamp oracle: hybrid timestamps, with the physical upper
// bound persisted ahead of use.
type TSO struct {
	store kv.Store
	mu    sync.Mutex
	state atomic.Pointer[tsoState]
}

// NewTSO returns an oracle over store.
func NewTSO(store kv.Store) *TSO { return &TSO{store: store} }

func (t *TSO) syncFromStore(ctx context.Context) (*tsoState, error) {
	v, _, err := t.store.Get(ctx, tsoKey)
	if err != nil && !errors.Is(err, kv.ErrNotFound) {
		return nil, err
	}
	st := &tsoState{physical: time.Now().UnixMilli()}
	if len(v) == 8 {
		st.physical = max(st.physical, int64(binary.BigEndian.Uint64(v)))
	}
	st.limit = st.physical
	return st, nil
}

// Next returns n timestamps, the last of which is (physical, logical).
func (t *TSO) Next(ctx context.Context, n uint32) (int64, int64, error) {
	if t.state.Load() == nil {
		st, err := t.syncFromStore(context.Background())
		if err != nil {
			return 0, 0, err
		}
		t.state.Store(st)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	st := t.state.Load()
	if now := time.Now().UnixMilli(); now > st.physical {
		st.physical, st.logical = now, 0
	}
	if st.physical >= st.limit {
		limit := st.physical + 3000
		if _, err := t.store.Put(ctx, tsoKey, binary.BigEndian.AppendUint64(nil, uint64(limit))); err != nil {
			return 0, 0, err
		}
		st.limit = limit
	}
	st.logical += int64(n)
	return st.physical, st.logical, nil
}

// SafePoints keeps the cluster's GC safe point.
type SafePoints struct{ store kv.Store }

// Load returns the current safe point.
func (g *SafePoints) Load(ctx context.Context) (uint64, error) {
	v, _, err := g.store.Get(ctx, []byte("gc/safe_point"))
	if errors.Is(err, kv.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return binary.BigEndian.Uint64(v), nil
}
