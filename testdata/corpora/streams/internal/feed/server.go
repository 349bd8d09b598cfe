// Package feed implements feed.v1.FeedService: live topic subscriptions, journal replay,
// change-log tailing and the console's interactive session.
package feed

import (
	"context"
	"log"
	"sync"
	"sync/atomic"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/timestamppb"

	feedv1 "example.test/streams/gen/feed/v1"
	"example.test/streams/internal/pubsub"
	"example.test/streams/internal/store"
)

// SystemTopicPrefix marks topics the platform itself publishes on (rebalances, schema changes).
const SystemTopicPrefix = "_sys."

// drainNotices is signalled with the node name when this replica is taken out of rotation, so
// heartbeat streams can tell load balancers and clients to go elsewhere.
var drainNotices = make(chan string, 16)

// Server implements feedv1.FeedServiceServer.
type Server struct {
	feedv1.UnimplementedFeedServiceServer

	node    string
	bus     *pubsub.Bus
	journal *store.Journal
	store   *store.Store

	// system receives a copy of every system-topic event; Run fills it.
	system chan pubsub.Event
	// committed announces journal sequence numbers as group commits make them durable; the
	// console shows them as "saved". Publish feeds it.
	committed chan int64
	// drain is signalled by BeginDrain when the node leaves the rotation.
	drain chan string
	// deadLetters holds system events no session could take; reportDeadLetters drains it.
	deadLetters chan pubsub.Event
	// snapshotSlots limits concurrent full-table snapshots; slotFreed is signalled on release.
	snapshotSlots atomic.Int32
	slotFreed     chan struct{}
	maxSnapshots  int32

	// pollOnly is set on read replicas without LISTEN/NOTIFY.
	pollOnly bool

	index *keyIndex
}

// Options configures a Server.
type Options struct {
	Node         string
	PollOnly     bool
	MaxSnapshots int32
}

// New returns a Server. Run must be started for system topics to flow.
func New(bus *pubsub.Bus, st *store.Store, j *store.Journal, opts Options) *Server {
	if opts.MaxSnapshots <= 0 {
		opts.MaxSnapshots = 4
	}
	return &Server{
		node:         opts.Node,
		bus:          bus,
		store:        st,
		journal:      j,
		system:       make(chan pubsub.Event, 256),
		committed:    make(chan int64, 256),
		drain:        make(chan string, 1),
		deadLetters:  make(chan pubsub.Event, 1024),
		slotFreed:    make(chan struct{}, 1),
		maxSnapshots: opts.MaxSnapshots,
		pollOnly:     opts.PollOnly,
		index:        newKeyIndex(),
	}
}

// Register adds the service to a gRPC server.
func (s *Server) Register(gs grpc.ServiceRegistrar) {
	feedv1.RegisterFeedServiceServer(gs, s)
}

// Run copies system-topic events to the channel sessions read, until ctx is done.
// It runs for the life of the process, started by main.
func (s *Server) Run(ctx context.Context) {
	go s.reportDeadLetters()
	firehose := s.bus.Firehose()
	for {
		select { // OK: background worker, not a request scope (and it has a ctx.Done case)
		case <-ctx.Done():
			return
		case ev := <-firehose:
			if len(ev.Topic) > len(SystemTopicPrefix) && ev.Topic[:len(SystemTopicPrefix)] == SystemTopicPrefix {
				select {
				case s.system <- ev:
				default:
					s.deadLetters <- ev
				}
			}
		}
	}
}

// BeginDrain tells interactive sessions and heartbeat streams that the node is leaving the
// rotation. Called by main on SIGTERM, before GracefulStop.
func (s *Server) BeginDrain() {
	select {
	case s.drain <- s.node:
	default:
	}
	for i := 0; i < cap(drainNotices); i++ {
		select {
		case drainNotices <- s.node:
		default:
		}
	}
}

// reportDeadLetters logs events nobody took. It lives as long as the process.
func (s *Server) reportDeadLetters() {
	for ev := range s.deadLetters { // OK: process-lifetime worker started by Run, not by a handler
		log.Printf("feed: dead letter topic=%s seq=%d", ev.Topic, ev.Sequence)
	}
}

func (s *Server) acquireSnapshotSlot() bool {
	for {
		n := s.snapshotSlots.Load()
		if n >= s.maxSnapshots {
			return false
		}
		if s.snapshotSlots.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

func (s *Server) releaseSnapshotSlot() {
	s.snapshotSlots.Add(-1)
	select {
	case s.slotFreed <- struct{}{}:
	default:
	}
}

func toProto(ev pubsub.Event) *feedv1.Event {
	return &feedv1.Event{
		Id:          ev.ID,
		Topic:       ev.Topic,
		Payload:     ev.Payload,
		Sequence:    ev.Sequence,
		PublishedAt: timestamppb.New(ev.Published),
	}
}

func changeToProto(c store.Change) *feedv1.Row {
	return &feedv1.Row{Table: c.Table, Cursor: c.Cursor, Columns: c.Columns, Deleted: c.Deleted}
}

// keyIndex remembers the last sequence number seen per topic and key, for compaction.
type keyIndex struct {
	mu   sync.Mutex
	last map[string]int64
}

func newKeyIndex() *keyIndex { return &keyIndex{last: map[string]int64{}} }

func (k *keyIndex) Add(topic, key string, seq int64) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.last[topic+"/"+key] = seq
}
