package overrides

import (
	"context"
	"database/sql"
	"testing"
)

// slow is a test's double that works with its ctx; only the test stores it.
type slow struct{ db *sql.DB }

func (s slow) Lookup(ctx context.Context, name string) (string, bool) {
	_, err := s.db.ExecContext(ctx, "SELECT pg_sleep(1)")
	return name, err == nil
}

func TestOverrides(t *testing.T) {
	s := New(nil, nil, nil)
	s.overrides = slow{}
	_, _ = s.GetItem(context.Background(), nil)
}
