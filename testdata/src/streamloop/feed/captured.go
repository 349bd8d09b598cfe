package feed

import "example.com/gen/catalogpb"

// Captured's handler hands its receiver, its stream and its ctx to function literals, so
// each lives in a variable the literals share rather than in a parameter.
type Captured struct{ Server }

// ListItems follows a subscription in a goroutine, given the stream's ctx: that channel
// closes when the client leaves, so the goroutine's loop is silent. Its own loop ranges over
// a channel the server hands out with no ctx at all: reported.
func (s *Captured) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	ctx := stream.Context()
	send := func(ev event) { stream.Send(&catalogpb.Item{Id: ev.id}) }
	go func() {
		for ev := range s.bus.Subscribe(ctx, "items") {
			send(ev)
		}
	}()
	for ev := range s.bus.Updates("items") { // want `loop in streaming handler Captured\.ListItems waits on a channel that outlives the request`
		send(ev)
	}
	return nil
}
