// Package inhandler writes roots in its handlers themselves and hands them to work that is not
// the request's: a store's ID read on first use and kept, an interface whose every value is in
// sight and never looks at its ctx, a pooled runner's idle ctx, a child cancelled by a goroutine
// when the request is done or the handler returns. Each has a twin that loses the deadline.
package inhandler

import (
	"context"
	"database/sql"
	"sync/atomic"
	"time"

	"example.com/gen/catalogpb"
)

// registry reads the cluster's ID once and keeps it.
type registry struct {
	db *sql.DB
	id atomic.Pointer[string]
}

// ClusterID queries only on first use.
func (r *registry) ClusterID(ctx context.Context) (string, error) {
	if p := r.id.Load(); p != nil {
		return *p, nil
	}
	var id string
	if err := r.db.QueryRowContext(ctx, "SELECT id FROM meta").Scan(&id); err != nil {
		return "", err
	}
	r.id.Store(&id)
	return id, nil
}

// Count queries on every call, after the same first-use check.
func (r *registry) Count(ctx context.Context) (int, error) {
	if _, err := r.ClusterID(ctx); err != nil {
		return 0, err
	}
	var n int
	err := r.db.QueryRowContext(ctx, "SELECT count(*) FROM items").Scan(&n)
	return n, err
}

// namer names the leader.
type namer interface {
	Leader(ctx context.Context) string
}

type fixed string

func (f fixed) Leader(context.Context) string { return string(f) }

type members struct{ current atomic.Pointer[string] }

// byMembers asks the members, which read the name they keep.
type byMembers struct{ m *members }

func (b byMembers) Leader(ctx context.Context) string { return b.m.lookup(ctx) }

func (m *members) lookup(_ context.Context) string {
	if p := m.current.Load(); p != nil {
		return *p
	}
	return ""
}

// remote asks a peer who leads.
type remote struct{ db *sql.DB }

func (r remote) Leader(ctx context.Context) string {
	var name string
	_ = r.db.QueryRowContext(ctx, "SELECT leader FROM peers").Scan(&name)
	return name
}

// runner runs with the ctx it was last given.
type runner struct{ ctx context.Context }

// SetContext gives the runner the ctx its next run uses.
func (r *runner) SetContext(ctx context.Context) { r.ctx = ctx }

func (r *runner) Run(db *sql.DB) error {
	_, err := db.ExecContext(r.ctx, "UPDATE items SET n = n + 1")
	return err
}

// Server serves the catalog.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	reg     *registry
	leaders namer // only ever a fixed name or the members: both in sight
	peers   namer // set by whoever builds the server
	runners chan *runner
	db      *sql.DB
	state   int // 1 running, 2 canceled
}

// New builds a server; m is nil on a single node.
func New(db *sql.DB, m *members, peers namer) *Server {
	s := &Server{reg: &registry{db: db}, peers: peers, runners: make(chan *runner, 4), db: db}
	if m != nil {
		s.leaders = byMembers{m: m}
	} else {
		s.leaders = fixed("self")
	}
	return s
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	id, err := s.reg.ClusterID(context.Background())
	if err != nil {
		return nil, err
	}
	n, err := s.reg.Count(context.Background()) // want `context\.Background\(\) in handler Server\.GetItem drops the caller's deadline and cancellation; pass ctx`
	if err != nil {
		return nil, err
	}
	name := s.leaders.Leader(context.TODO())
	peer := s.peers.Leader(context.TODO()) // want `context\.TODO\(\) in handler Server\.GetItem drops the caller's deadline and cancellation; pass ctx`
	return &catalogpb.Item{Id: id + name + peer, Name: string(rune(n))}, nil
}

func (s *Server) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	ctx := stream.Context()
	r := <-s.runners
	r.SetContext(ctx)
	if err := r.Run(s.db); err != nil {
		return err
	}
	r.SetContext(context.Background())
	s.runners <- r

	scratch := &runner{}
	scratch.SetContext(context.TODO()) // want `context\.TODO\(\) in handler Server\.ListItems drops the caller's deadline and cancellation; pass stream\.Context\(\)`
	return scratch.Run(s.db)
}

// UploadItems follows past the client's deadline, but stops when the client goes or the
// handler returns: its child is cancelled by a goroutine in either case.
func (s *Server) UploadItems(stream catalogpb.Catalog_UploadItemsServer) error {
	ctx := stream.Context()
	fctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			cancel()
		case <-done:
		}
	}()
	if _, err := s.db.ExecContext(fctx, "DELETE FROM staging"); err != nil {
		return err
	}

	// A timer's case ends the watch early: the child outlives it.
	tctx, tcancel := context.WithCancel(context.Background()) // want `context\.Background\(\) in handler Server\.UploadItems drops the caller's deadline and cancellation; pass stream\.Context\(\)`
	defer tcancel()
	go func() {
		select {
		case <-ctx.Done():
			tcancel()
		case <-time.After(time.Second):
		}
	}()
	_, err := s.db.ExecContext(tctx, "VACUUM")
	return err
}

// record is loaded per request; its owner is read on its first use.
type record struct {
	db    *sql.DB
	key   string
	owner *string
}

func (r *record) Owner(ctx context.Context) string {
	if r.owner != nil {
		return *r.owner
	}
	var o string
	_ = r.db.QueryRowContext(ctx, "SELECT owner FROM items WHERE id = $1", r.key).Scan(&o)
	r.owner = &o
	return o
}

// pinger's setter works with the ctx it is given.
type pinger struct {
	db  *sql.DB
	ctx context.Context
}

func (p *pinger) SetContext(ctx context.Context) { p.ctx = ctx; _ = p.db.PingContext(ctx) }

// Exported is a server whose exported field another package may set.
type Exported struct {
	catalogpb.UnimplementedCatalogServer
	Leaders namer
	db      *sql.DB
}

// DefaultNamer is exported: another package may replace it.
var DefaultNamer namer = fixed("self")

// NewExported sets the field to a constant another package may replace.
func NewExported(db *sql.DB) *Exported { return &Exported{db: db, Leaders: fixed("self")} }

func (s *Exported) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	rec := &record{db: s.db, key: req.GetId()}
	owner := rec.Owner(context.Background()) // want `context\.Background\(\) in handler Exported\.GetItem drops the caller's deadline and cancellation; pass ctx`
	a := s.Leaders.Leader(context.TODO())    // want `context\.TODO\(\) in handler Exported\.GetItem drops the caller's deadline and cancellation; pass ctx`
	b := DefaultNamer.Leader(context.TODO()) // want `context\.TODO\(\) in handler Exported\.GetItem drops the caller's deadline and cancellation; pass ctx`

	r := &runner{}
	r.SetContext(ctx)
	r.SetContext(context.Background()) // want `context\.Background\(\) in handler Exported\.GetItem drops the caller's deadline and cancellation; pass ctx`
	if err := r.Run(s.db); err != nil {
		return nil, err
	}
	p := &pinger{db: s.db}
	p.SetContext(ctx)
	p.SetContext(context.Background()) // want `context\.Background\(\) in handler Exported\.GetItem drops the caller's deadline and cancellation; pass ctx`
	return &catalogpb.Item{Id: owner + a + b}, nil
}

// ListItems ties children to the request by hand, in ways that end the watch early.
func (s *Exported) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	ctx := stream.Context()
	wctx, wcancel := context.WithCancel(ctx)
	fctx, cancel := context.WithCancel(context.Background()) // want `context\.Background\(\) in handler Exported\.ListItems drops the caller's deadline and cancellation; pass stream\.Context\(\)`
	defer cancel()
	go func() {
		select {
		case <-ctx.Done():
			cancel()
		case <-wctx.Done(): // another ctx's end: the watch may be over before the request's
		}
	}()
	wcancel()
	if _, err := s.db.ExecContext(fctx, "VACUUM"); err != nil {
		return err
	}

	sctx, scancel := context.WithCancel(context.Background()) // want `context\.Background\(\) in handler Exported\.ListItems drops the caller's deadline and cancellation; pass stream\.Context\(\)`
	defer scancel()
	done := make(chan struct{}, 1)
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			scancel()
		case <-done:
		}
	}()
	done <- struct{}{} // the watch ends now, not when the handler returns
	_, err := s.db.ExecContext(sctx, "ANALYZE")
	return err
}

// Chat captures its receiver in a literal: the store it asks is still the server's own.
func (s *Server) Chat(stream catalogpb.Catalog_ChatServer) error {
	defer func() { s.runners <- &runner{} }()
	id, err := s.reg.ClusterID(context.Background())
	if err != nil {
		return err
	}
	// A state check, not a first use: the count below runs on every call but a canceled one.
	if s.state == 2 {
		return nil
	}
	s.state = 1
	n, err := s.reg.Count(context.Background()) // want `context\.Background\(\) in handler Server\.Chat drops the caller's deadline and cancellation; pass stream\.Context\(\)`
	if err != nil {
		return err
	}
	return stream.Send(&catalogpb.ChatMessage{Text: id, From: string(rune(n))})
}
