// Package server implements the Ledger and Notifier gRPC services.
package server

import (
	"context"
	"time"

	"example.test/ledger/gen/ledgerpb"
	"example.test/ledger/internal/cache"
	"example.test/ledger/internal/events"
	"example.test/ledger/internal/riskclient"
	"example.test/ledger/internal/statement"
	"example.test/ledger/internal/store"
	"example.test/ledger/internal/webhook"
)

// Deps are the collaborators of the Ledger service.
type Deps struct {
	Store   *store.Store
	Risk    *riskclient.Client
	Hook    *webhook.Client
	Broker  *events.Broker
	Gen     *statement.Generator
	Exports *statement.Queue
}

// Ledger implements ledgerpb.LedgerServer.
type Ledger struct {
	ledgerpb.UnimplementedLedgerServer

	// baseCtx is cancelled when the process starts shutting down.
	baseCtx context.Context

	store   *store.Store
	audit   *store.Auditor
	cache   *cache.Balances
	risk    *riskclient.Client
	hook    *webhook.Client
	broker  *events.Broker
	gen     *statement.Generator
	exports *statement.Queue

	// slots limits concurrent statement preparation.
	slots chan struct{}
}

// NewLedger wires the service. baseCtx is the process lifetime.
func NewLedger(baseCtx context.Context, d Deps) *Ledger {
	return &Ledger{
		baseCtx: baseCtx,
		store:   d.Store,
		audit:   store.NewAuditor(d.Store),
		cache:   cache.NewBalances(d.Store.Balance, 2*time.Second),
		risk:    d.Risk,
		hook:    d.Hook,
		broker:  d.Broker,
		gen:     d.Gen,
		exports: d.Exports,
		slots:   make(chan struct{}, 4),
	}
}

// Close releases background resources owned by the service.
func (s *Ledger) Close() { s.cache.Close() }
