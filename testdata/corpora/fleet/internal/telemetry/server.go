// Package telemetry implements the TelemetryService: live vehicle state, sensor ingestion
// and the remote-control channel to the in-vehicle units.
package telemetry

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"log/slog"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"

	telemetryv1 "example.test/fleet/gen/fleet/telemetry/v1"
	"example.test/fleet/internal/store"
)

// Options configures the server's external endpoints.
type Options struct {
	OTAURL      string // firmware / over-the-air update service
	OpsWebhook  string // where collision reports are escalated
	ControlPort string // TCP port of the in-vehicle control agent
}

// Server implements telemetryv1.TelemetryServiceServer.
type Server struct {
	telemetryv1.UnimplementedTelemetryServiceServer

	ctx   context.Context // cancelled when the process shuts down
	db    *sql.DB
	repo  store.Repository
	audit *store.AuditLog
	relay *Relay
	hub   *Hub
	opts  Options
	log   *slog.Logger
}

// NewServer builds the service. ctx is the process lifetime.
func NewServer(ctx context.Context, db *sql.DB, repo store.Repository, audit *store.AuditLog, relay *Relay, hub *Hub, opts Options, log *slog.Logger) *Server {
	if ctx == nil {
		ctx = context.Background() // OK
	}
	if opts.ControlPort == "" {
		opts.ControlPort = "7447"
	}
	return &Server{ctx: ctx, db: db, repo: repo, audit: audit, relay: relay, hub: hub, opts: opts, log: log}
}

// Register installs the service on gs.
func (s *Server) Register(gs *grpc.Server) {
	telemetryv1.RegisterTelemetryServiceServer(gs, s)
}

func actorFrom(ctx context.Context) string {
	md, ok := metadata.FromIncomingContext(ctx)
	if !ok {
		return "anonymous"
	}
	if v := md.Get("x-fleet-actor"); len(v) > 0 {
		return v[0]
	}
	return "anonymous"
}

func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
