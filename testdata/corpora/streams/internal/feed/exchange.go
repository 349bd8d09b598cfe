package feed

import (
	"errors"
	"io"
	"log"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	feedv1 "example.test/streams/gen/feed/v1"
	"example.test/streams/internal/pubsub"
)

// Exchange is the web console's session: the client subscribes to topics, pings and acks what
// it has rendered; the server pushes events, commit confirmations and operator notices.
func (s *Server) Exchange(stream grpc.BidiStreamingServer[feedv1.ClientFrame, feedv1.ServerFrame]) error {
	ctx := stream.Context()

	var mu sync.Mutex
	send := func(f *feedv1.ServerFrame) error {
		mu.Lock()
		defer mu.Unlock()
		return stream.Send(f)
	}

	frames := make(chan *feedv1.ClientFrame)
	recvErr := make(chan error, 1)
	go func() {
		for {
			f, err := stream.Recv()
			if err != nil {
				recvErr <- err
				return
			}
			select { // OK: the hand-off has a ctx.Done case, and Recv's error ends the loop
			case frames <- f:
			case <-ctx.Done():
				return
			}
		}
	}()

	// Operator notices (maintenance windows, fail-overs) go to every open console.
	go func() {
		for notice := range pubsub.Announcements { // BUG: streamloop
			send(&feedv1.ServerFrame{Notice: notice})
		}
	}()

	// Show "saved" once a publish is durable, and ask the console to move when we drain.
	go func() {
		for {
			select { // BUG: streamloop
			case seq := <-s.committed:
				send(&feedv1.ServerFrame{AckedSequence: seq})
			case node := <-s.drain:
				send(&feedv1.ServerFrame{Notice: "node " + node + " is draining, please reconnect"})
			}
		}
	}()

	var (
		sub     <-chan pubsub.Event
		lastAck int64
	)
	for {
		select { // OK: a case for the stream's ctx.Done ends the session
		case <-ctx.Done():
			return ctx.Err()
		case err := <-recvErr:
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		case f := <-frames:
			switch {
			case f.GetPing():
				if err := send(&feedv1.ServerFrame{Pong: true}); err != nil {
					return err
				}
			case f.GetSubscribeTopic() != "":
				sub = s.bus.Subscribe(ctx, f.GetSubscribeTopic())
			case f.GetAckSequence() > lastAck:
				lastAck = f.GetAckSequence()
			}
		case ev, ok := <-sub:
			if !ok {
				sub = nil
				continue
			}
			if err := send(&feedv1.ServerFrame{Event: toProto(ev)}); err != nil {
				return status.Errorf(codes.Unavailable, "console went away: %v", err) // OK: Send's error, not that of a call given ctx
			}
		case upd := <-s.bus.Updates():
			if upd.Deleted {
				if err := send(&feedv1.ServerFrame{Notice: "topic " + upd.Topic + " was deleted"}); err != nil {
					return err
				}
			}
		}
	}
}

// Publish accepts a producer's batch and acknowledges it once it is durable.
func (s *Server) Publish(stream grpc.ClientStreamingServer[feedv1.PublishRequest, feedv1.PublishSummary]) error {
	ctx := stream.Context()
	var batch []pubsub.Event

	// Keep the compaction index warm while the batch streams in.
	keys := make(chan pubsub.Event, 64)
	indexed := make(chan struct{})
	go func() {
		defer close(indexed)
		for ev := range keys { // OK: channel made by this handler and closed when the receive loop ends
			s.index.Add(ev.Topic, ev.Key, 0)
		}
	}()

	for { // OK: Recv's error ends the loop
		req, err := stream.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			close(keys)
			return err
		}
		ev := pubsub.Event{Topic: req.GetTopic(), Key: req.GetKey(), Payload: req.GetPayload()}
		batch = append(batch, ev)
		keys <- ev
	}
	close(keys)
	<-indexed
	if len(batch) == 0 {
		return stream.SendAndClose(&feedv1.PublishSummary{})
	}

	last, err := s.journal.Append(ctx, batch)
	if err != nil {
		return status.Errorf(codes.Unavailable, "journal append of %d events: %v", len(batch), err) // BUG: statusmask
	}
	// Group commit: acknowledge only what is on disk.
	for synced := int64(0); synced < last; {
		synced = <-s.journal.Synced() // BUG: streamloop
	}
	select {
	case s.committed <- last:
	default:
	}
	for _, ev := range batch {
		if _, err := s.bus.Publish(ctx, ev); err != nil {
			log.Printf("feed: fan-out of %s: %v", ev.Topic, err)
		}
	}
	return stream.SendAndClose(&feedv1.PublishSummary{Accepted: int64(len(batch)), LastSequence: last})
}
