package repo

import (
	"context"
	"database/sql"

	"go.opentelemetry.io/otel/trace"
)

// Traced is a store that starts its span on a root context of its own.
type Traced struct {
	db     *sql.DB
	tracer trace.Tracer
}

func (t *Traced) Load(ctx context.Context, id string) (string, error) { // want Load:"drops ctx: context.Background\\(\\) at .*/traced.go:17"
	ctx, span := t.tracer.Start(context.Background(), "Traced.Load")
	defer span.End()
	var name string
	err := t.db.QueryRowContext(ctx, "SELECT name FROM items WHERE id = $1", id).Scan(&name)
	return name, err
}

// Spanned keeps the caller's ctx under its span: fine.
func (t *Traced) Spanned(ctx context.Context, id string) error {
	ctx, span := t.tracer.Start(ctx, "Traced.Spanned")
	defer span.End()
	_, err := t.db.ExecContext(ctx, "DELETE FROM items WHERE id = $1", id)
	return err
}

// LoadFresh reads with a root context of its own.
func LoadFresh(_ context.Context, id string) (string, error) { // want LoadFresh:"drops ctx: context.Background\\(\\) at .*/traced.go:34"
	return (&Good{}).Load(context.Background(), id)
}
