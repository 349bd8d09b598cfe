package feed

import (
	"context"
	"errors"
	"log"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	feedv1 "example.test/streams/gen/feed/v1"
	"example.test/streams/internal/pubsub"
	"example.test/streams/internal/store"
)

const replayPageSize = 500

// Subscribe streams live events of one topic. Consumers that ask for system events also get
// the platform's rebalance and schema notices, interleaved.
func (s *Server) Subscribe(req *feedv1.SubscribeRequest, stream grpc.ServerStreamingServer[feedv1.Event]) error {
	ctx := stream.Context()
	topic := req.GetTopic()
	if topic == "" {
		return status.Error(codes.InvalidArgument, "topic is required")
	}
	if _, err := s.store.GetTopic(ctx, topic); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return status.Errorf(codes.NotFound, "subscribe: %v", err) // OK: the error was recognised (errors.Is) before it is translated
		}
		return err
	}

	var mu sync.Mutex
	send := func(ev pubsub.Event) error {
		mu.Lock()
		defer mu.Unlock()
		return stream.Send(toProto(ev))
	}

	if req.GetIncludeSystem() {
		go func() {
			for ev := range s.system { // BUG: streamloop
				send(ev)
			}
		}()
	}

	// Lag metric: the newest sequence number the bus has seen for this topic.
	var newest atomic.Int64
	go func() {
		for ev := range s.bus.Subscribe(ctx, topic) { // OK: Subscribe was given the stream's ctx and closes the channel when the client leaves
			newest.Store(ev.Sequence)
		}
	}()

	events, stop := s.bus.Listen(topic)
	defer stop()
	for ev := range events { // BUG: streamloop
		if lag := newest.Load() - ev.Sequence; lag > 10_000 {
			log.Printf("feed: consumer %q on %s is %d events behind", req.GetConsumer(), topic, lag)
		}
		send(ev)
	}
	return nil
}

// Replay streams a topic's stored events from a sequence number and, with follow, the live
// events after them.
func (s *Server) Replay(req *feedv1.ReplayRequest, stream grpc.ServerStreamingServer[feedv1.Event]) error {
	ctx, cancel := context.WithCancel(stream.Context())
	defer cancel()
	topic := req.GetTopic()
	seq := req.GetFromSequence()

	// End the replay if the topic is deleted underneath it.
	go func() {
		for upd := range s.bus.Updates() { // BUG: streamloop
			if upd.Topic == topic && upd.Deleted {
				cancel()
				return
			}
		}
	}()

	for { // OK: EventsSince is given ctx and its error ends the loop; Send's error too
		page, err := s.journal.EventsSince(ctx, topic, seq, replayPageSize)
		if err != nil {
			return status.Errorf(codes.Internal, "replay %s after %d: %v", topic, seq, err) // BUG: statusmask
		}
		if len(page) == 0 {
			break
		}
		for _, ev := range page {
			if err := stream.Send(toProto(ev)); err != nil {
				return err
			}
			seq = ev.Sequence
		}
	}
	if !req.GetFollow() {
		return nil
	}

	for ev := range s.bus.Subscribe(ctx, topic) { // OK: the subscription was given ctx; the range ends when the client leaves
		if ev.Sequence <= seq {
			continue // already sent from the journal
		}
		stream.Send(toProto(ev)) // OK? the error is dropped, but the range over the ctx subscription ends when the client leaves
	}
	return nil
}

// Heartbeat keeps idle connections alive through load balancers that cut silent streams, and
// tells the client when this node starts draining.
func (s *Server) Heartbeat(req *feedv1.HeartbeatRequest, stream grpc.ServerStreamingServer[feedv1.HeartbeatResponse]) error {
	every := time.Duration(req.GetIntervalSeconds()) * time.Second
	if every < time.Second {
		every = 15 * time.Second
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select { // BUG: streamloop
		case <-t.C:
			stream.Send(&feedv1.HeartbeatResponse{ServerTime: timestamppb.Now(), Node: s.node})
		case node := <-drainNotices:
			stream.Send(&feedv1.HeartbeatResponse{ServerTime: timestamppb.Now(), Node: "draining:" + node})
		}
	}
}
