// Package pubsub is the in-process fan-out in front of the broker connection: one goroutine
// reads the broker, and every stream that follows a topic gets its own buffered channel.
package pubsub

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"
)

// Event is one message published on a topic.
type Event struct {
	ID        string
	Topic     string
	Key       string
	Payload   []byte
	Sequence  int64
	Published time.Time
}

// TopicUpdate tells followers that a topic's configuration changed.
type TopicUpdate struct {
	Topic   string
	Deleted bool
}

// ErrClosed is returned by Publish once the bus is shut down.
var ErrClosed = errors.New("pubsub: bus closed")

// Announcements carries operator notices (maintenance windows, fail-overs) to every
// interactive session. The ops tooling writes to it; it is never closed.
var Announcements = make(chan string, 16)

type subscriber struct {
	ch     chan Event
	topic  string
	closed atomic.Bool
}

// Bus fans published events out to subscribers.
type Bus struct {
	mu       sync.RWMutex
	subs     map[string]map[*subscriber]struct{}
	firehose chan Event
	updates  chan TopicUpdate
	seq      atomic.Int64
	closed   atomic.Bool
}

// New returns an empty bus.
func New() *Bus {
	return &Bus{
		subs:     make(map[string]map[*subscriber]struct{}),
		firehose: make(chan Event, 1024),
		updates:  make(chan TopicUpdate, 64),
	}
}

// Subscribe follows topic until ctx is done; the returned channel is closed then.
func (b *Bus) Subscribe(ctx context.Context, topic string) <-chan Event {
	s := b.add(topic)
	context.AfterFunc(ctx, func() { b.remove(s) })
	return s.ch
}

// Listen follows topic until the returned stop function is called. It exists for the
// broker bridge, which has no request context.
func (b *Bus) Listen(topic string) (<-chan Event, func()) {
	s := b.add(topic)
	return s.ch, func() { b.remove(s) }
}

// Firehose returns the channel every published event is copied to (best effort: events are
// dropped when nobody reads it). It is never closed.
func (b *Bus) Firehose() <-chan Event { return b.firehose }

// Updates returns the channel topic configuration changes are announced on.
func (b *Bus) Updates() <-chan TopicUpdate { return b.updates }

// AnnounceUpdate queues a topic update without blocking.
func (b *Bus) AnnounceUpdate(u TopicUpdate) {
	select {
	case b.updates <- u:
	default:
	}
}

// Publish assigns ev a sequence number and delivers it to the subscribers of its topic.
func (b *Bus) Publish(ctx context.Context, ev Event) (int64, error) {
	if b.closed.Load() {
		return 0, ErrClosed
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	ev.Sequence = b.seq.Add(1)
	if ev.Published.IsZero() {
		ev.Published = time.Now()
	}
	b.mu.RLock()
	for s := range b.subs[ev.Topic] {
		select {
		case s.ch <- ev:
		default: // slow subscriber: it will resync through Replay
		}
	}
	b.mu.RUnlock()
	select {
	case b.firehose <- ev:
	default:
	}
	return ev.Sequence, nil
}

// Close stops accepting events and closes every subscriber channel.
func (b *Bus) Close() {
	b.closed.Store(true)
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, set := range b.subs {
		for s := range set {
			if s.closed.CompareAndSwap(false, true) {
				close(s.ch)
			}
		}
	}
	b.subs = make(map[string]map[*subscriber]struct{})
}

func (b *Bus) add(topic string) *subscriber {
	s := &subscriber{ch: make(chan Event, 64), topic: topic}
	b.mu.Lock()
	defer b.mu.Unlock()
	set, ok := b.subs[topic]
	if !ok {
		set = make(map[*subscriber]struct{})
		b.subs[topic] = set
	}
	set[s] = struct{}{}
	return s
}

func (b *Bus) remove(s *subscriber) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.subs[s.topic], s)
	if s.closed.CompareAndSwap(false, true) {
		close(s.ch)
	}
}
