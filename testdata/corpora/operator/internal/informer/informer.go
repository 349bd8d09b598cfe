// Package informer keeps an in-memory, periodically resynced copy of objects
// from the state store and fans changes out to watchers.
package informer

import (
	"context"
	"log/slog"
	"reflect"
	"sync"
	"time"
)

// EventType says what happened to an object.
type EventType int

const (
	Added EventType = iota + 1
	Modified
	Deleted
)

// Event is one change observed by the informer.
type Event[T any] struct {
	Type   EventType
	Key    string
	Object T
}

// ListFunc loads the full current state.
type ListFunc[T any] func(ctx context.Context) ([]T, error)

// Informer caches objects of one kind.
type Informer[T any] struct {
	name   string
	list   ListFunc[T]
	key    func(T) string
	resync time.Duration
	log    *slog.Logger

	mu      sync.RWMutex
	items   map[string]T
	synced  chan struct{}
	once    sync.Once
	subs    map[int]*subscriber[T]
	nextSub int

	handlers []func(Event[T])
}

type subscriber[T any] struct {
	ch     chan Event[T]
	filter func(Event[T]) bool
}

// New returns an informer; call Run to start it.
func New[T any](name string, list ListFunc[T], key func(T) string, resync time.Duration, log *slog.Logger) *Informer[T] {
	return &Informer[T]{
		name:   name,
		list:   list,
		key:    key,
		resync: resync,
		log:    log,
		items:  make(map[string]T),
		synced: make(chan struct{}),
		subs:   make(map[int]*subscriber[T]),
	}
}

// AddHandler registers a callback for every change. Must be called before Run.
func (i *Informer[T]) AddHandler(h func(Event[T])) { i.handlers = append(i.handlers, h) }

// Run lists the store every resync period until ctx is done.
func (i *Informer[T]) Run(ctx context.Context) {
	t := time.NewTicker(i.resync)
	defer t.Stop()
	for {
		i.resyncOnce(ctx)
		select {
		case <-ctx.Done():
			i.closeAll()
			return
		case <-t.C:
		}
	}
}

func (i *Informer[T]) resyncOnce(ctx context.Context) {
	lctx, cancel := context.WithTimeout(ctx, 15*time.Second) // OK: background loop, bounded
	defer cancel()
	objs, err := i.list(lctx) // OK
	if err != nil {
		i.log.Warn("informer resync failed", "informer", i.name, "err", err)
		return
	}
	i.replace(objs)
	i.once.Do(func() { close(i.synced) })
}

func (i *Informer[T]) replace(objs []T) {
	seen := make(map[string]struct{}, len(objs))
	var events []Event[T]
	i.mu.Lock()
	for _, o := range objs {
		k := i.key(o)
		seen[k] = struct{}{}
		old, ok := i.items[k]
		switch {
		case !ok:
			events = append(events, Event[T]{Type: Added, Key: k, Object: o})
		case !reflect.DeepEqual(old, o):
			events = append(events, Event[T]{Type: Modified, Key: k, Object: o})
		}
		i.items[k] = o
	}
	for k, o := range i.items {
		if _, ok := seen[k]; !ok {
			delete(i.items, k)
			events = append(events, Event[T]{Type: Deleted, Key: k, Object: o})
		}
	}
	i.mu.Unlock()
	for _, ev := range events {
		i.dispatch(ev)
	}
}

func (i *Informer[T]) dispatch(ev Event[T]) {
	for _, h := range i.handlers {
		h(ev)
	}
	i.mu.RLock()
	defer i.mu.RUnlock()
	for _, s := range i.subs {
		if s.filter != nil && !s.filter(ev) {
			continue
		}
		select {
		case s.ch <- ev:
		default:
			i.log.Warn("watcher too slow, dropping event", "informer", i.name, "key", ev.Key)
		}
	}
}

// HasSynced reports whether the first list has completed.
func (i *Informer[T]) HasSynced() bool {
	select {
	case <-i.synced:
		return true
	default:
		return false
	}
}

// WaitForSync blocks until the first list completes or ctx is done.
func (i *Informer[T]) WaitForSync(ctx context.Context) bool {
	select {
	case <-i.synced:
		return true
	case <-ctx.Done():
		return false
	}
}

// Get returns the cached object for key.
func (i *Informer[T]) Get(key string) (T, bool) {
	i.mu.RLock()
	defer i.mu.RUnlock()
	o, ok := i.items[key]
	return o, ok
}

// List returns a snapshot of every cached object.
func (i *Informer[T]) List() []T {
	i.mu.RLock()
	defer i.mu.RUnlock()
	out := make([]T, 0, len(i.items))
	for _, o := range i.items {
		out = append(out, o)
	}
	return out
}

// Subscribe returns a channel of changes that pass filter; the subscription
// ends, and the channel is closed, when ctx is done.
func (i *Informer[T]) Subscribe(ctx context.Context, filter func(Event[T]) bool) <-chan Event[T] {
	ch := make(chan Event[T], 64)
	i.mu.Lock()
	id := i.nextSub
	i.nextSub++
	i.subs[id] = &subscriber[T]{ch: ch, filter: filter}
	i.mu.Unlock()
	go func() {
		<-ctx.Done()
		i.mu.Lock()
		if s, ok := i.subs[id]; ok {
			delete(i.subs, id)
			close(s.ch)
		}
		i.mu.Unlock()
	}()
	return ch
}

func (i *Informer[T]) closeAll() {
	i.mu.Lock()
	defer i.mu.Unlock()
	for id, s := range i.subs {
		close(s.ch)
		delete(i.subs, id)
	}
}
