// Package pubsub is the in-process fan-out between publishers and the streaming handlers.
package pubsub

import (
	"context"
	"sync"
	"time"
)

// Message is one published event.
type Message struct {
	ID        string
	Topic     string
	Payload   []byte
	Sequence  int64
	Published time.Time
}

// Broker fans published messages out to subscribers of a topic.
type Broker struct {
	mu     sync.Mutex
	seq    int64
	subs   map[string]map[chan Message]struct{}
	in     chan Message
	closed chan struct{}
}

// NewBroker starts a broker; Close stops it.
func NewBroker() *Broker {
	b := &Broker{
		subs:   make(map[string]map[chan Message]struct{}),
		in:     make(chan Message, 1024),
		closed: make(chan struct{}),
	}
	go b.run()
	return b
}

func (b *Broker) run() {
	for {
		select {
		case m := <-b.in:
			b.fanOut(m)
		case <-b.closed:
			return
		}
	}
}

func (b *Broker) fanOut(m Message) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for ch := range b.subs[m.Topic] {
		select {
		case ch <- m:
		default: // slow subscriber: drop rather than stall everyone
		}
	}
}

// Publish assigns the next sequence number and queues the message.
func (b *Broker) Publish(topic string, payload []byte) int64 {
	b.mu.Lock()
	b.seq++
	seq := b.seq
	b.mu.Unlock()
	b.in <- Message{Topic: topic, Payload: payload, Sequence: seq, Published: time.Now()}
	return seq
}

// Subscribe returns a channel of the topic's messages. It stays open until Unsubscribe.
func (b *Broker) Subscribe(topic string) <-chan Message {
	ch := make(chan Message, 64)
	b.mu.Lock()
	if b.subs[topic] == nil {
		b.subs[topic] = make(map[chan Message]struct{})
	}
	b.subs[topic][ch] = struct{}{}
	b.mu.Unlock()
	return ch
}

// Unsubscribe removes a channel returned by Subscribe and closes it.
func (b *Broker) Unsubscribe(topic string, ch <-chan Message) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for c := range b.subs[topic] {
		if c == ch {
			delete(b.subs[topic], c)
			close(c)
		}
	}
}

// Watch is Subscribe tied to ctx: the channel is closed once ctx is done.
func (b *Broker) Watch(ctx context.Context, topic string) <-chan Message {
	ch := b.Subscribe(topic)
	go func() {
		<-ctx.Done()
		b.Unsubscribe(topic, ch)
	}()
	return ch
}

// Close stops the broker.
func (b *Broker) Close() { close(b.closed) }
