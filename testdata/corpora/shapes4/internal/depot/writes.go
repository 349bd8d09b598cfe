package depot

import (
	"context"
	"database/sql"
	"time"

	venuev1 "example.test/shapes4/gen/venue/v1"
	"example.test/shapes4/internal/ops"
	"example.test/shapes4/internal/zonedb"
)

// writes holds the write handlers; Server embeds it by value and the handlers have value
// receivers.
type writes struct {
	db    *sql.DB
	zones *zonedb.Repo
}

// UpdateLayout changes the bay layout of a zone.
func (w writes) UpdateLayout(ctx context.Context, req *venuev1.VenueRequest) (*venuev1.Venue, error) {
	if _, err := w.db.ExecContext(ctx, `UPDATE zones SET layout_version = layout_version + 1 WHERE id = $1`, req.GetVenueId()); err != nil { // OK: the ctx-aware twin
		return nil, err
	}
	if _, err := w.db.Exec(`UPDATE bays SET state = 'free' WHERE zone_id = $1 AND state = 'blocked'`, req.GetVenueId()); err != nil { // BUG: ctxless
		return nil, err
	}
	return &venuev1.Venue{Id: req.GetVenueId()}, nil
}

// PublishEvent publishes a zone event to the dispatch feed.
func (w writes) PublishEvent(ctx context.Context, req *venuev1.VenueRequest) (*venuev1.Venue, error) {
	if _, err := w.zones.Get(ctx, req.GetVenueId()); err != nil {
		return nil, err
	}
	go w.zones.Event(context.WithoutCancel(ctx), req.GetName(), req.GetVenueId())
	// ^BUG: detach
	return &venuev1.Venue{Id: req.GetVenueId()}, nil
}

// RenameVenue renames a zone.
func (w writes) RenameVenue(ctx context.Context, req *venuev1.VenueRequest) (*venuev1.Venue, error) {
	if err := ops.Rename(ctx, w.zones, req.GetVenueId(), req.GetName()); err != nil { // OK: another package's helper working with the request ctx
		return nil, err
	}
	// the feed must learn of the rename even if the caller has gone; bounded to one insert
	ectx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second) // OK: detached with a bound and a reason
	defer cancel()
	_ = w.zones.Event(ectx, "zone.renamed.feed", req.GetVenueId())
	return &venuev1.Venue{Id: req.GetVenueId(), Name: req.GetName()}, nil
}

// ArchiveEvent retires a zone. It has a value receiver on Server.
func (s Server) ArchiveEvent(ctx context.Context, req *venuev1.VenueRequest) (*venuev1.Venue, error) {
	if err := ops.Retire(ctx, s.zones, req.GetVenueId()); err != nil { // BUG: ctxbackground
		return nil, err
	}
	s.log.InfoContext(ctx, "zone retired", "zone", req.GetVenueId())
	return &venuev1.Venue{Id: req.GetVenueId()}, nil
}
