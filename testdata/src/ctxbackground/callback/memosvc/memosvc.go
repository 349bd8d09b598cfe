// Package memosvc keeps two caches of package memo, each built with a loader of its own: the
// request's deadline is lost in Get only for the cache whose loader drops the ctx it is given.
package memosvc

import (
	"context"
	"database/sql"

	"ctxbackground/callback/memo"
	"example.com/gen/catalogpb"
)

type Server struct {
	catalogpb.UnimplementedCatalogServer
	db     *sql.DB
	names  *memo.Cache[string, string]
	prices *memo.Cache[string, int64]
	other  *memo.Cache[string, int64]
}

// loadNameFresh ignores the ctx it is given and queries on a root.
func (s *Server) loadNameFresh(_ context.Context, id string) (string, error) { // want loadNameFresh:"drops ctx"
	var name string
	err := s.db.QueryRowContext(context.Background(), "SELECT name FROM items WHERE id = $1", id).Scan(&name)
	return name, err
}

// loadPrice queries with the ctx it is given.
func (s *Server) loadPrice(ctx context.Context, id string) (int64, error) {
	var p int64
	err := s.db.QueryRowContext(ctx, "SELECT price FROM items WHERE id = $1", id).Scan(&p)
	return p, err
}

// NewServer builds the caches, each with its loader.
func NewServer(db *sql.DB, other *memo.Cache[string, int64]) *Server {
	s := &Server{db: db, other: other}
	s.names = memo.New(s.loadNameFresh)
	s.prices = memo.New(s.loadPrice)
	return s
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	name, err := s.names.Get(ctx, req.GetId()) // want `memosvc\.Server\.loadNameFresh, called in handler Server\.GetItem, works with context\.Background\(\); pass ctx down`
	if err != nil {
		return nil, err
	}
	price, err := s.prices.Get(ctx, req.GetId()) // the loader passes the request's ctx on: silent
	if err != nil {
		return nil, err
	}
	_, _ = s.other.Get(ctx, req.GetId())                         // made out of sight: silent
	s.names.Prefetch(ctx, req.GetId())                           // runs the loader on a goroutine of its own: silent
	_ = s.names.Peek(ctx, req.GetId())                           // never runs the loader: silent
	if err := s.prices.Warm([]string{req.GetId()}); err != nil { // want `memo\.Cache\.Warm, called in handler Server\.GetItem, works with context\.Background\(\); pass ctx down`
		return nil, err
	}
	if err := s.names.Warm([]string{req.GetId()}); err != nil { // runs loadNameFresh: the root of the finding at names.Get, one finding
		return nil, err
	}
	if err := s.other.Warm([]string{req.GetId()}); err != nil { // its loader is out of sight: silent
		return nil, err
	}
	return &catalogpb.Item{Id: req.GetId(), Name: name, Price: price}, nil
}
