// Package ops holds the multi-step zone operations shared by the depot API and the admin tools.
package ops

import (
	"context"
	"fmt"

	"example.test/shapes4/internal/zonedb"
)

// Retire records the retirement of a zone and archives it.
func Retire(ctx context.Context, zones *zonedb.Repo, id string) error {
	if err := zones.Event(ctx, "zone.retired", id); err != nil {
		return fmt.Errorf("record retirement: %w", err)
	}
	return zones.Archive(ctx, id)
}

// Rename renames a zone and records the change.
func Rename(ctx context.Context, zones *zonedb.Repo, id, name string) error {
	if name == "" {
		return fmt.Errorf("rename %s: empty name", id)
	}
	if err := zones.Rename(ctx, id, name); err != nil {
		return err
	}
	return zones.Event(ctx, "zone.renamed", id)
}
