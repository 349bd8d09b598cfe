// Package repo is a repository layer with two implementations of one interface.
package repo

import (
	"context"
	"database/sql"
)

// Store loads rows.
type Store interface {
	Load(ctx context.Context, id string) (string, error)
}

// PG is the production store: it drops the ctx it is given.
type PG struct{ db *sql.DB }

func (p *PG) Load(ctx context.Context, id string) (string, error) { // want Load:"drops ctx: context.Background\\(\\) at .*/repo.go:19"
	var name string
	err := p.db.QueryRowContext(context.Background(), "SELECT name FROM items WHERE id = $1", id).Scan(&name)
	return name, err
}

// Memory is a test double: fine.
type Memory struct{ rows map[string]string }

func (m *Memory) Load(ctx context.Context, id string) (string, error) {
	return m.rows[id], ctx.Err()
}

// Good is a store that passes ctx on.
type Good struct{ db *sql.DB }

func (g *Good) Load(ctx context.Context, id string) (string, error) {
	var name string
	err := g.db.QueryRowContext(ctx, "SELECT name FROM items WHERE id = $1", id).Scan(&name)
	return name, err
}

// Fallback defaults a nil ctx: no caller's ctx is replaced.
func Fallback(ctx context.Context, db *sql.DB) error {
	if ctx == nil {
		ctx = context.Background()
	}
	return db.PingContext(ctx)
}
