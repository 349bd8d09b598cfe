// Package racks holds the operations on analyzer racks shared by the bench API.
package racks

import (
	"context"
	"database/sql"
)

// Retire takes a rack out of service and releases the tubes it still holds.
func Retire(ctx context.Context, db *sql.DB, rack string) error {
	if _, err := db.ExecContext(ctx, `UPDATE racks SET retired_at = now() WHERE id = $1`, rack); err != nil {
		return err
	}
	return releaseTubes(db, rack)
}

func releaseTubes(db *sql.DB, rack string) error {
	_, err := db.ExecContext(context.Background(),
		`UPDATE analyzer_slots SET specimen_id = NULL WHERE rack = $1`, rack)
	return err
}

// Rename changes a rack's display name.
func Rename(ctx context.Context, db *sql.DB, rack, name string) error {
	_, err := db.ExecContext(ctx, `UPDATE racks SET name = $2 WHERE id = $1`, rack, name)
	return err
}
