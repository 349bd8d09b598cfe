// Package depot serves venue.v1.VenueService for the shuttle depots: pickup zones, their
// loading bays and the zone events the dispatchers follow.
package depot

import (
	"database/sql"
	"log/slog"

	"google.golang.org/grpc"

	venuev1 "example.test/shapes4/gen/venue/v1"
	"example.test/shapes4/internal/zonedb"
)

// unimplemented keeps the generated defaults one level below the handlers, so that the
// promoted handlers of reads and writes win.
type unimplemented struct {
	venuev1.UnimplementedVenueServiceServer
}

// Server implements venuev1.VenueServiceServer. Read handlers are promoted from *reads,
// write handlers from writes (value receivers).
type Server struct {
	unimplemented
	*reads
	writes

	zones *zonedb.Repo
	log   *slog.Logger
}

// New builds the server.
func New(db *sql.DB, log *slog.Logger) *Server {
	zones := zonedb.New(db)
	return &Server{
		reads:  &reads{zones: zones},
		writes: writes{db: db, zones: zones},
		zones:  zones,
		log:    log,
	}
}

// Register registers the server on g.
func Register(g *grpc.Server, s *Server) {
	venuev1.RegisterVenueServiceServer(g, s)
}
