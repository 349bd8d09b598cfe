// Package accounts serves accounts.v1.AccountService. The handlers are split by area over
// profileHandlers, sessionHandlers and billingHandlers; Server glues them together.
package accounts

import (
	"context"
	"database/sql"
	"log/slog"
	"time"

	"google.golang.org/grpc"

	"example.test/acme/fxrates"
	accountsv1 "example.test/monolith/gen/accounts/v1"
	"example.test/monolith/internal/platform/audit"
	"example.test/monolith/internal/platform/events"
	"example.test/monolith/internal/service/accountsvc"
	"example.test/monolith/pkg/legacy"
)

// Server implements accountsv1.AccountServiceServer.
type Server struct {
	*profileHandlers
	*sessionHandlers
	*billingHandlers

	stop context.CancelFunc
}

// Deps are the collaborators of the accounts API.
type Deps struct {
	Accounts   *accountsvc.Service
	Billing    *accountsvc.Billing
	DB         *sql.DB
	Settings   *legacy.Client
	FX         *fxrates.Client
	Audit      *audit.Writer
	Events     *events.Publisher
	Log        *slog.Logger
	ExportPace time.Duration
}

// NewServer wires the handler groups.
func NewServer(d Deps) *Server {
	rootCtx, cancel := context.WithCancel(context.Background()) // OK
	return &Server{
		profileHandlers: &profileHandlers{svc: d.Accounts, settings: d.Settings, audit: d.Audit, log: d.Log},
		sessionHandlers: &sessionHandlers{svc: d.Accounts, db: d.DB, log: d.Log},
		billingHandlers: &billingHandlers{
			billing: d.Billing,
			fx:      d.FX,
			events:  d.Events,
			rootCtx: rootCtx,
			pace:    d.ExportPace,
			log:     d.Log,
		},
		stop: cancel,
	}
}

// Register registers the service on g.
func (s *Server) Register(g *grpc.Server) {
	accountsv1.RegisterAccountServiceServer(g, s)
}

// Close cancels the server-lifetime context.
func (s *Server) Close() { s.stop() }
