package feed

import (
	"errors"
	"io"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	feedv1 "example.test/streams2/gen/feed/v1"
)

// Exchange is the web console's session: the browser subscribes to topics, acks what it has
// shown and pings; the server pushes events, operator notices and pongs.
func (s *Server) Exchange(stream grpc.BidiStreamingServer[feedv1.ClientFrame, feedv1.ServerFrame]) error {
	ctx := stream.Context()
	var mu sync.Mutex
	send := func(f *feedv1.ServerFrame) error {
		mu.Lock()
		defer mu.Unlock()
		return stream.Send(f)
	}

	go func() {
		for text := range s.notices { // BUG: streamloop
			send(&feedv1.ServerFrame{Notice: text})
		}
	}()

	subscribed := map[string]bool{}
	for {
		f, err := stream.Recv() // OK: returns on Recv errors
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		switch {
		case f.GetPing():
			if err := send(&feedv1.ServerFrame{Pong: true}); err != nil {
				return err
			}
		case f.GetSubscribeTopic() != "" && !subscribed[f.GetSubscribeTopic()]:
			topic := f.GetSubscribeTopic()
			subscribed[topic] = true
			// Console subscriptions are tied to the server's lifetime: the broker drops a Watch
			// when its context ends, and browsers reconnect too often to tear them down one by one.
			events := s.bus.Watch(s.lifetime, topic)
			go func() {
				for msg := range events { // BUG: streamloop
					send(&feedv1.ServerFrame{Event: toEvent(msg)})
				}
			}()
		case f.GetAckSequence() > 0:
			if err := s.store.Ack(ctx, "console", "console", f.GetAckSequence()); err != nil {
				return status.Error(codes.Internal, "could not record the ack") // OK: constant message
			}
			if err := send(&feedv1.ServerFrame{AckedSequence: f.GetAckSequence()}); err != nil {
				return err
			}
		}
	}
}

// Publish takes a producer's batch of events.
func (s *Server) Publish(stream grpc.ClientStreamingServer[feedv1.PublishRequest, feedv1.PublishSummary]) error {
	ctx := stream.Context()
	var accepted, last int64
	for {
		req, err := stream.Recv() // OK: returns on Recv errors
		if err == io.EOF {
			return stream.SendAndClose(&feedv1.PublishSummary{Accepted: accepted, LastSequence: last})
		}
		if err != nil {
			return err
		}
		seq := s.bus.Publish(req.GetTopic(), req.GetPayload())
		if err := s.journal.Append(ctx, req.GetTopic(), req.GetKey(), req.GetPayload(), seq); err != nil {
			return status.Errorf(codes.Internal, "store event %d: %v", seq, err) // BUG: statusmask
		}
		accepted++
		last = seq
	}
}
