// Package streamloop defines an Analyzer that reports loops in streaming handlers that keep
// going after the client has left.
//
// # Analyzer streamloop
//
// streamloop: report loops in streaming handlers that nothing stops when the client leaves
//
// "A deadline expiry or a client disconnect does not stop a loop that is pulling rows from a
// database cursor or reacting to a pub/sub subscription. Your code has to notice and stop
// itself." In a grpc-go or connect-go streaming handler, and in the closures and goroutines it
// creates, streamloop reports a loop that can run or wait forever after the stream's ctx is
// done, because nothing in it can notice:
//
//   - it waits — receives from a channel, ranges over one, or blocks in a select — on a
//     channel that outlives the request (a field of the server, a package variable, or one
//     returned by a call not given the request's ctx), or
//   - it sends on the stream (Send, SendMsg) and drops the error,
//
// and nothing in the loop observes cancellation: no receive or select case on a ctx's Done(),
// no ctx.Err(), no Send, SendMsg, Recv or RecvMsg, or call given the request's ctx, whose error
// it looks at (a loop that can leave on that error stops when the client does), and no select
// case that leaves the loop on a channel the handler made and a goroutine it starts sends on or
// closes (the request's own work reporting its end: the loop ends with it) — or, for a loop in
// a goroutine the handler starts (a pump to a slow client), that the handler closes or sends on
// in a call it defers (defer close(done): the pump ends when the handler returns, as the
// request does; a loop of the handler's own body is not ended by its own defer). Not reported: a
// channel returned by a call given the request's ctx (the producer closes it on cancellation:
// sub := bus.Subscribe(ctx)), a channel made in the handler, a loop that ends on its own
// (ranging over a slice or a map, counting), a goroutine's drain that only receives and drops
// what it receives until the channel closes (go func() { for range updates {} }(), so that
// senders do not block: no work for anyone), and code the analysis cannot follow. The finding
// is at the loop's blocking receive, select or send.
//
// For example:
//
//	func (s *Server) Watch(req *pb.WatchRequest, stream pb.Feed_WatchServer) error {
//		for ev := range s.events {
//			stream.Send(toProto(ev))
//		}
//		return nil
//	}
//
// should be:
//
//	for {
//		select {
//		case <-stream.Context().Done():
//			return stream.Context().Err()
//		case ev := <-s.events:
//			if err := stream.Send(toProto(ev)); err != nil {
//				return err
//			}
//		}
//	}
package streamloop
