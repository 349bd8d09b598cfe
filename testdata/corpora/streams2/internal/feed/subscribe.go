package feed

import (
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	feedv1 "example.test/streams2/gen/feed/v1"
	"example.test/streams2/internal/pubsub"
)

// Subscribe streams the live events of one topic.
func (s *Server) Subscribe(req *feedv1.SubscribeRequest, stream grpc.ServerStreamingServer[feedv1.Event]) error {
	if req.GetTopic() == "" {
		return status.Error(codes.InvalidArgument, "topic is required")
	}
	sub := s.bus.Subscribe(req.GetTopic())
	defer s.bus.Unsubscribe(req.GetTopic(), sub)
	for msg := range sub { // BUG: streamloop
		if isSystem(msg) && !req.GetIncludeSystem() {
			continue
		}
		stream.Send(toEvent(msg))
	}
	return nil
}

// Replay streams the stored events of a topic from a sequence number and, with follow, the live
// ones after them.
func (s *Server) Replay(req *feedv1.ReplayRequest, stream grpc.ServerStreamingServer[feedv1.Event]) error {
	ctx := stream.Context()
	topic := req.GetTopic()
	// Subscribe before reading the journal so that nothing published in between is missed.
	var live <-chan pubsub.Message
	if req.GetFollow() {
		live = s.bus.Watch(ctx, topic)
	}
	from := req.GetFromSequence()
	for {
		page, err := s.journal.Range(ctx, topic, from, replayPage)
		if err != nil {
			return err // OK: returned unchanged
		}
		for _, e := range page { // OK: ranges over a slice
			if err := stream.Send(storedToEvent(e)); err != nil {
				return err
			}
			from = e.Sequence + 1
		}
		if len(page) < replayPage {
			break
		}
	}
	if live == nil {
		return nil
	}
	for msg := range live { // OK: channel from a call given the stream ctx
		if msg.Sequence < from {
			continue
		}
		if err := stream.Send(toEvent(msg)); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// Heartbeat sends the server time every interval so that load balancers keep the connection.
func (s *Server) Heartbeat(req *feedv1.HeartbeatRequest, stream grpc.ServerStreamingServer[feedv1.HeartbeatResponse]) error {
	every := time.Duration(req.GetIntervalSeconds()) * time.Second // OK: a conversion
	if every <= 0 {
		every = defaultHeartbeat
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for now := range t.C { // BUG: streamloop
		stream.Send(&feedv1.HeartbeatResponse{ServerTime: timestamppb.New(now), Node: s.node})
	}
	return nil
}
