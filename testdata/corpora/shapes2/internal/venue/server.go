// Package venue implements venue.v1.VenueService (older generated style) from embedded parts:
// the read handlers are promoted from *reads, the write handlers from writes (value receivers).
package venue

import (
	"context"
	"database/sql"

	"google.golang.org/grpc"

	venuev1 "example.test/shapes2/gen/venue/v1"
	"example.test/shapes2/internal/store"
)

// lifetime is the process context, set by Init.
var lifetime context.Context

// Init stores the process context.
func Init(ctx context.Context) { lifetime = ctx }

type base struct {
	venuev1.UnimplementedVenueServiceServer
}

// Server is the venue service.
type Server struct {
	base
	*reads
	writes
	store *store.Store
}

// New builds the server.
func New(baseCtx context.Context, st *store.Store, db *sql.DB) *Server {
	return &Server{
		reads:  &reads{store: st, baseCtx: baseCtx},
		writes: writes{store: st, db: db},
		store:  st,
	}
}

// Register registers the service.
func (s *Server) Register(g *grpc.Server) {
	venuev1.RegisterVenueServiceServer(g, s)
}
