// Package server hands its followers' streams to the hub with the server's lifetime ctx.
package server

import (
	"context"

	"ctxflow/watching/fanout"
	"example.com/gen/catalogpb"
)

// Server keeps its lifetime ctx, which Stop cancels.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	life context.Context
	hub  *fanout.Hub
	out  chan *catalogpb.ChatMessage
}

// Chat serves one follower: the hub waits on the server stopping and on the follower leaving,
// so the lifetime ctx is the hub's choice, not a lost request.
func (s *Server) Chat(stream catalogpb.Catalog_ChatServer) error {
	if err := s.hub.ServeUntil(s.life, stream); err != nil {
		return err
	}
	s.hub.Relay(s.life, stream.Context(), s.out)
	if err := s.local(s.life, stream); err != nil {
		return err
	}
	_ = s.hub.Follow(s.life, stream)         // want `Hub\.Follow in handler Server\.Chat uses receiver field life, a ctx that outlives the request; pass stream\.Context\(\)`
	_ = s.hub.Tagged(s.life, stream)         // want `Hub\.Tagged in handler Server\.Chat uses receiver field life`
	_ = s.hub.Later(s.life, stream)          // want `Hub\.Later in handler Server\.Chat uses receiver field life`
	s.hub.Relay(s.life, s.life, s.out)       // want `Hub\.Relay in handler Server\.Chat uses receiver field life`
	_ = s.hub.Elsewhere(s.life, stream, nil) // want `Hub\.Elsewhere in handler Server\.Chat uses receiver field life`
	return s.hub.Serve(s.life, stream)
}

// local waits, in this package, on both.
func (s *Server) local(life context.Context, stream catalogpb.Catalog_ChatServer) error {
	select {
	case <-life.Done():
		return life.Err()
	case <-stream.Context().Done():
		return nil
	}
}
