// Package feed serves feed.v1.FeedService: live and replayed topic events, table change logs,
// the web console's interactive session, producer uploads and heartbeats.
package feed

import (
	"context"
	"strconv"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	feedv1 "example.test/streams2/gen/feed/v1"
	"example.test/streams2/internal/changelog"
	"example.test/streams2/internal/pubsub"
	"example.test/streams2/internal/store"
)

const (
	replayPage       = 200
	tailPoll         = 500 * time.Millisecond
	defaultHeartbeat = 15 * time.Second
)

// Server implements feedv1.FeedServiceServer.
type Server struct {
	feedv1.UnimplementedFeedServiceServer

	bus     *pubsub.Broker
	journal *store.Journal
	log     *changelog.Log
	store   *store.Store
	node    string

	// lifetime ends when the server shuts down.
	lifetime context.Context

	// notices carries operator announcements ("maintenance at 02:00") to console sessions.
	notices chan string
}

// NewServer returns a feed server.
func NewServer(lifetime context.Context, bus *pubsub.Broker, journal *store.Journal, log *changelog.Log, st *store.Store, node string) *Server {
	return &Server{
		bus:     bus,
		journal: journal,
		log:     log,
		store:   st,
		node:    node,
		notices: make(chan string, 16),

		lifetime: lifetime,
	}
}

// Announce queues an operator announcement for the console sessions.
func (s *Server) Announce(text string) {
	select {
	case s.notices <- text:
	default:
	}
}

func toEvent(m pubsub.Message) *feedv1.Event {
	return &feedv1.Event{
		Id:          m.ID,
		Topic:       m.Topic,
		Payload:     m.Payload,
		Sequence:    m.Sequence,
		PublishedAt: timestamppb.New(m.Published),
	}
}

func storedToEvent(e store.StoredEvent) *feedv1.Event {
	return &feedv1.Event{Id: e.ID, Topic: e.Topic, Payload: e.Payload, Sequence: e.Sequence}
}

func toRow(c changelog.Change) *feedv1.Row {
	return &feedv1.Row{
		Table:   c.Table,
		Cursor:  strconv.FormatInt(c.Position, 10),
		Columns: c.Columns,
		Deleted: c.Deleted,
	}
}

func parseCursor(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	return strconv.ParseInt(s, 10, 64)
}

func isSystem(m pubsub.Message) bool {
	return len(m.Topic) > 0 && m.Topic[0] == '$'
}
