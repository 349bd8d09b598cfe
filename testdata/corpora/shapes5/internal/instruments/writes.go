package instruments

import (
	"context"
	"database/sql"

	venuev1 "example.test/shapes5/gen/venue/v1"
	"example.test/shapes5/internal/racks"
	"example.test/shapes5/internal/specimens"
)

type writes struct {
	db *sql.DB
	st *specimens.Store
}

// UpdateLayout renames a bench and resizes its rack.
func (w writes) UpdateLayout(ctx context.Context, req *venuev1.VenueRequest) (*venuev1.Venue, error) {
	if _, err := w.db.ExecContext(ctx, `UPDATE benches SET name = $2 WHERE id = $1`, req.GetVenueId(), req.GetName()); err != nil { // OK: ExecContext
		return nil, err
	}
	if _, err := w.db.Exec(`UPDATE rack_positions SET layout_rev = layout_rev + 1 WHERE bench = $1`, req.GetVenueId()); err != nil { // BUG: ctxless
		return nil, err
	}
	return &venuev1.Venue{Id: req.GetVenueId(), Name: req.GetName()}, nil
}

// PublishEvent opens a run on a bench.
func (w writes) PublishEvent(ctx context.Context, req *venuev1.VenueRequest) (*venuev1.Venue, error) {
	if _, err := w.db.ExecContext(ctx, `INSERT INTO bench_runs (bench, run) VALUES ($1, $2)`, req.GetVenueId(), req.GetEventId()); err != nil {
		return nil, err
	}
	if err := w.st.Event(context.WithoutCancel(ctx), req.GetEventId(), "run-opened:"+req.GetVenueId()); err != nil {
		return nil, err // ^BUG: detach
	}
	return &venuev1.Venue{Id: req.GetVenueId()}, nil
}

// RenameVenue changes a bench's display name.
func (w writes) RenameVenue(ctx context.Context, req *venuev1.VenueRequest) (*venuev1.Venue, error) {
	if err := racks.Rename(ctx, w.db, req.GetVenueId(), req.GetName()); err != nil { // OK: another package's helper working with the request ctx
		return nil, err
	}
	return &venuev1.Venue{Id: req.GetVenueId(), Name: req.GetName()}, nil
}

// ArchiveEvent retires a bench's rack at the end of a run.
func (s Server) ArchiveEvent(ctx context.Context, req *venuev1.VenueRequest) (*venuev1.Venue, error) {
	if err := racks.Retire(ctx, s.sql, req.GetVenueId()); err != nil { // BUG: ctxbackground
		return nil, err
	}
	return &venuev1.Venue{Id: req.GetVenueId()}, nil
}
