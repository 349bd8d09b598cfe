// Package instruments serves the bench API (venue.v1.VenueService, grpc-go
// v1.3 stream style): a venue is an analyzer bench, its seat map the rack of
// tube positions, an event a run on the bench.
package instruments

import (
	"context"
	"database/sql"
	"sync"

	"google.golang.org/grpc"

	venuev1 "example.test/shapes5/gen/venue/v1"
	"example.test/shapes5/internal/specimens"
)

type base struct {
	venuev1.UnimplementedVenueServiceServer
}

// Server implements venuev1.VenueServiceServer: the read handlers are
// promoted from *reads, the write handlers from writes.
type Server struct {
	base
	*reads
	writes

	holds *sessions
	sql   *sql.DB
}

// sessions maps a rack to the ctx of the sync session that owns it.
type sessions struct {
	mu    sync.Mutex
	owner map[string]context.Context
}

// New builds the bench API on db.
func New(db *sql.DB) *Server {
	st := specimens.New(db)
	return &Server{
		reads:  &reads{db: db, st: st},
		writes: writes{db: db, st: st},
		holds:  &sessions{owner: make(map[string]context.Context)},
		sql:    db,
	}
}

// Register registers the server on g.
func Register(g *grpc.Server, s *Server) {
	venuev1.RegisterVenueServiceServer(g, s)
}
