// Package fanout sends a server's updates to its followers' streams: some of its loops wait on
// the follower leaving as well as on the server stopping, some only on the server.
package fanout

import (
	"context"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc/metadata"
)

// Hub holds the updates the server publishes.
type Hub struct {
	updates chan *catalogpb.ChatMessage
}

// Serve sends updates to stream until the server stops (ctx, its lifetime) or the follower
// leaves: it waits on both.
func (h *Hub) Serve(ctx context.Context, stream catalogpb.Catalog_ChatServer) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-stream.Context().Done():
			return nil
		case m := <-h.updates:
			if err := stream.Send(m); err != nil {
				return err
			}
		}
	}
}

// ServeUntil is Serve with the follower's ctx taken once.
func (h *Hub) ServeUntil(ctx context.Context, stream catalogpb.Catalog_ChatServer) error {
	left := stream.Context()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-left.Done():
			return nil
		case m := <-h.updates:
			_ = stream.Send(m)
		}
	}
}

// Follow sends updates until the server stops: a follower that left is noticed only when the
// next update's Send fails, and with no update it waits for ever.
func (h *Hub) Follow(ctx context.Context, stream catalogpb.Catalog_ChatServer) error {
	for {
		select {
		case <-ctx.Done():
			return nil
		case m := <-h.updates:
			if err := stream.Send(m); err != nil {
				return err
			}
		}
	}
}

// Tagged reads the follower's metadata from its stream and waits on the server alone.
func (h *Hub) Tagged(ctx context.Context, stream catalogpb.Catalog_ChatServer) error {
	md, _ := metadata.FromIncomingContext(stream.Context())
	_ = md
	<-ctx.Done()
	return nil
}

// Relay waits on the server's lifetime and on the request's ctx it is given as well.
func (h *Hub) Relay(life, req context.Context, out chan<- *catalogpb.ChatMessage) {
	for {
		select {
		case <-life.Done():
			return
		case <-req.Done():
			return
		case m := <-h.updates:
			out <- m
		}
	}
}

// Later starts a goroutine that waits on the follower leaving; the loop it runs itself waits
// on the server alone.
func (h *Hub) Later(ctx context.Context, stream catalogpb.Catalog_ChatServer) error {
	go func() { <-stream.Context().Done() }()
	<-ctx.Done()
	return nil
}

// Elsewhere waits on another stream's end, named like the one it is given.
func (h *Hub) Elsewhere(ctx context.Context, stream catalogpb.Catalog_ChatServer, other catalogpb.Catalog_ChatServer) error {
	{
		stream := other
		<-stream.Context().Done()
	}
	left := stream.Context()
	left = other.Context()
	select {
	case <-ctx.Done():
	case <-left.Done():
	}
	return nil
}
