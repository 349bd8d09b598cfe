package dynamic

import (
	"context"

	"example.com/gen/catalogpb"
)

// Interface calls on a field whose every value is in sight: the package builds the value it
// stores there, so only that value's method can run, whatever else implements the interface.

type ledger interface {
	Post(ctx context.Context, id string) error
}

// sqlLedger drops the ctx it is given.
type sqlLedger struct{}

func (sqlLedger) Post(_ context.Context, id string) error { return fetch(context.Background(), id) } // want Post:"drops ctx"

// memLedger keeps entries in memory: it does nothing with its ctx.
type memLedger struct{ posted map[string]bool }

func (m *memLedger) Post(_ context.Context, id string) error { m.posted[id] = true; return nil }

// remoteLedger keeps the ctx.
type remoteLedger struct{}

func (remoteLedger) Post(ctx context.Context, id string) error { return fetch(ctx, id) }

// A server wired only to the in-memory ledger: sqlLedger is never its value.
type inMemory struct {
	catalogpb.UnimplementedCatalogServer
	l ledger
}

func newInMemory() *inMemory { return &inMemory{l: &memLedger{posted: map[string]bool{}}} }

func (s *inMemory) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	_ = s.l.Post(ctx, req.GetId())
	return nil, nil
}

// A server wired only to the ledger that drops: remoteLedger keeping the ctx is no excuse.
type onSQL struct {
	catalogpb.UnimplementedCatalogServer
	l ledger
}

func newOnSQL() *onSQL { return &onSQL{l: sqlLedger{}} }

func (s *onSQL) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	_ = s.l.Post(ctx, req.GetId()) // want `\(dynamic.sqlLedger\).Post, called in handler onSQL.GetItem, works with context.Background\(\)`
	return nil, nil
}

// A server whose ledger its caller chooses: any implementation may be there, and one keeps
// the ctx.
type chosen struct {
	catalogpb.UnimplementedCatalogServer
	l ledger
}

func newChosen(l ledger) *chosen { return &chosen{l: l} }

func (s *chosen) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	_ = s.l.Post(ctx, req.GetId())
	return nil, nil
}

// journal has no implementation that keeps the ctx: one drops it, one ignores it.
type journal interface {
	Append(ctx context.Context, id string) error
}

type fileJournal struct{}

func (fileJournal) Append(_ context.Context, id string) error { return fetch(context.TODO(), id) } // want Append:"drops ctx"

type memJournal struct{ lines []string }

func (m *memJournal) Append(_ context.Context, id string) error {
	m.lines = append(m.lines, id)
	return nil
}

// A server wired only to the in-memory journal: fileJournal's root is never reached from it.
type journaled struct {
	catalogpb.UnimplementedCatalogServer
	j journal
}

func newJournaled() *journaled { return &journaled{j: &memJournal{}} }

func (s *journaled) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	_ = s.j.Append(ctx, req.GetId())
	return nil, nil
}

// A server whose journal its caller chooses: fileJournal may be there, and nothing keeps the ctx.
type anyJournal struct {
	catalogpb.UnimplementedCatalogServer
	j journal
}

func newAnyJournal(j journal) *anyJournal { return &anyJournal{j: j} }

func (s *anyJournal) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	_ = s.j.Append(ctx, req.GetId()) // want `\(dynamic.fileJournal\).Append, called in handler anyJournal.GetItem, works with context.TODO\(\)`
	return nil, nil
}

var _ = []any{newInMemory, newOnSQL, newChosen, remoteLedger{}, newJournaled, newAnyJournal, fileJournal{}}
