// Package migrations applies the embedded schema migrations.
package migrations

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"log/slog"
	"sort"
	"strings"
)

//go:embed sql/*.sql
var files embed.FS

// Names returns the migration file names in order.
func Names() ([]string, error) {
	entries, err := fs.ReadDir(files, "sql")
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".sql") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names, nil
}

// Pending returns the migrations not yet recorded in schema_migrations.
func Pending(ctx context.Context, db *sql.DB) ([]string, error) {
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return nil, err
	}
	names, err := Names()
	if err != nil {
		return nil, err
	}
	var pending []string
	for _, n := range names {
		var one int
		err := db.QueryRowContext(ctx, `SELECT 1 FROM schema_migrations WHERE name = $1`, n).Scan(&one)
		if err == sql.ErrNoRows {
			pending = append(pending, n)
		} else if err != nil {
			return nil, err
		}
	}
	return pending, nil
}

// Apply runs every pending migration in its own transaction.
func Apply(ctx context.Context, db *sql.DB, log *slog.Logger) error {
	pending, err := Pending(ctx, db)
	if err != nil {
		return err
	}
	for _, n := range pending {
		body, err := files.ReadFile("sql/" + n)
		if err != nil {
			return err
		}
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, string(body)); err != nil {
			_ = tx.Rollback()
			return fmt.Errorf("migration %s: %w", n, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (name) VALUES ($1)`, n); err != nil {
			_ = tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
		log.Info("migration applied", "name", n)
	}
	return nil
}
