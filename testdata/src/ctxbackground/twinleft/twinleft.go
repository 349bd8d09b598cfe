// Package twinleft calls a store's convenience methods, which run their ctx-taking variants with
// a root of their own: Find in a helper the handler hands its ctx: ctxless reports that call (use
// FindContext(ctx, ...)), and what Find does behind it is that one decision, not a second finding
// at the handler's call of the helper. A helper given no ctx has no variant to call with it: the
// root reached through it is this rule's. In the handler itself both rules report the one call.
package twinleft

import (
	"context"
	"database/sql"

	"example.com/gen/catalogpb"
)

// KV offers each read with and without a ctx.
type KV struct{ db *sql.DB }

// Get is GetContext with the background context.
func (k *KV) Get(key string) (string, error) { return k.GetContext(context.Background(), key) } // want Get:"drops ctx"

// Find is FindContext with the background context.
func (k *KV) Find(key string) (string, error) { return k.FindContext(context.Background(), key) } // want Find:"drops ctx"

// FindContext reads key with ctx.
func (k *KV) FindContext(ctx context.Context, key string) (string, error) {
	return k.GetContext(ctx, key)
}

// Peek is PeekContext with the background context.
func (k *KV) Peek(key string) (string, error) { return k.PeekContext(context.Background(), key) } // want Peek:"drops ctx"

// PeekContext reads key with ctx.
func (k *KV) PeekContext(ctx context.Context, key string) (string, error) {
	return k.GetContext(ctx, key)
}

// GetContext reads key with ctx.
func (k *KV) GetContext(ctx context.Context, key string) (string, error) {
	var v string
	err := k.db.QueryRowContext(ctx, "SELECT v FROM kv WHERE k = $1", key).Scan(&v)
	return v, err
}

// Server reads items from the KV.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	kv *KV
}

// lookup is handed the request's ctx and calls Get without it: ctxless's.
func (s *Server) lookup(ctx context.Context, key string) (string, error) {
	return s.kv.Find(key)
}

// peek is given no ctx: the root behind it is reached from the handler.
func (s *Server) peek(key string) (string, error) { // want peek:"drops ctx"
	return s.kv.Peek(key)
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if _, err := s.kv.Get(req.GetId()); err != nil { // want `twinleft\.KV\.Get, called in handler Server\.GetItem, works with context\.Background\(\)`
		return nil, err
	}
	if _, err := s.lookup(ctx, req.GetId()); err != nil { // ctxless's, in lookup
		return nil, err
	}
	name, err := s.peek(req.GetId()) // want `twinleft\.Server\.peek, called in handler Server\.GetItem, works with context\.Background\(\); pass ctx down`
	if err != nil {
		return nil, err
	}
	return &catalogpb.Item{Id: req.GetId(), Name: name}, nil
}
