// Package overrides hands roots written in its handlers to an interface whose every value is
// in sight and never looks at its ctx: a named map converted from a parameter (its type is the
// conversion's, wherever the map came from) and an empty struct. A double its test stores in
// the field is no production value. Each twin loses the deadline: a value out of sight, or one
// in sight that works with its ctx.
package overrides

import (
	"context"
	"database/sql"

	"example.com/gen/catalogpb"
)

// schemas supplies schemas that take precedence over the store's.
type schemas interface {
	Lookup(ctx context.Context, name string) (string, bool)
}

// static serves the schemas it was built with.
type static map[string]string

func (o static) Lookup(_ context.Context, name string) (string, bool) {
	v, ok := o[name]
	return v, ok
}

type none struct{}

func (none) Lookup(context.Context, string) (string, bool) { return "", false }

// stored reads the schema from the database.
type stored struct{ db *sql.DB }

func (s stored) Lookup(ctx context.Context, name string) (string, bool) {
	var v string
	err := s.db.QueryRowContext(ctx, "SELECT body FROM schemas WHERE name = $1", name).Scan(&v)
	return v, err == nil
}

// Server serves the catalog.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	overrides schemas // none, or the static map New is given
	fallback  schemas // none, or the database
	given     schemas // whatever the caller of NewGiven passes
}

// New builds a server whose overrides, when not empty, take precedence.
func New(db *sql.DB, overrides map[string]string, given schemas) *Server {
	s := &Server{overrides: none{}, fallback: none{}, given: given}
	if len(overrides) > 0 {
		s.overrides = static(overrides)
	}
	if db != nil {
		s.fallback = stored{db: db}
	}
	return s
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if v, ok := s.overrides.Lookup(context.Background(), req.GetId()); ok {
		return &catalogpb.Item{Id: v}, nil
	}
	if v, ok := s.fallback.Lookup(context.Background(), req.GetId()); ok { // want `context\.Background\(\) in handler Server\.GetItem drops the caller's deadline and cancellation; pass ctx`
		return &catalogpb.Item{Id: v}, nil
	}
	v, _ := s.given.Lookup(context.TODO(), req.GetId()) // want `context\.TODO\(\) in handler Server\.GetItem drops the caller's deadline and cancellation; pass ctx`
	return &catalogpb.Item{Id: v}, nil
}
