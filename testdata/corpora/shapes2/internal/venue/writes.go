package venue

import (
	"context"
	"database/sql"
	"time"

	venuev1 "example.test/shapes2/gen/venue/v1"
	"example.test/shapes2/internal/store"
)

// writes holds the write handlers, with value receivers; Server embeds it by value.
type writes struct {
	store *store.Store
	db    *sql.DB
}

// UpdateLayout rewrites a venue's layout.
func (w writes) UpdateLayout(ctx context.Context, req *venuev1.VenueRequest) (*venuev1.Venue, error) {
	if _, err := w.db.ExecContext(ctx, "UPDATE venues SET layout = $1 WHERE id = $2", req.GetName(), req.GetVenueId()); err != nil { // OK
		return nil, err
	}
	if _, err := w.db.Exec("UPDATE venue_cache SET stale = true WHERE id = $1", req.GetVenueId()); err != nil { // BUG: ctxless
		return nil, err
	}
	return &venuev1.Venue{Id: req.GetVenueId(), Name: req.GetName()}, nil
}

// PublishEvent opens an event for sale and announces it.
func (w writes) PublishEvent(ctx context.Context, req *venuev1.VenueRequest) (*venuev1.Venue, error) {
	if err := w.store.Publish(ctx, req.GetEventId(), "open"); err != nil { // OK
		return nil, err
	}
	go w.store.Publish(context.WithoutCancel(ctx), req.GetEventId(), "announce")
	// ^BUG: detach
	return &venuev1.Venue{Id: req.GetVenueId()}, nil
}

// archive marks an event archived on a context of its own.
func (w writes) archive(eventID string) error {
	return w.store.Publish(context.Background(), eventID, "archived")
}

// ArchiveEvent is declared on Server itself, with a value receiver.
func (s Server) ArchiveEvent(ctx context.Context, req *venuev1.VenueRequest) (*venuev1.Venue, error) {
	if err := s.store.Publish(ctx, req.GetEventId(), "closing"); err != nil { // OK
		return nil, err
	}
	if err := s.archive(req.GetEventId()); err != nil { // BUG: ctxbackground
		return nil, err
	}
	return &venuev1.Venue{Id: req.GetVenueId()}, nil
}

// RenameVenue renames a venue; the audit write gets a bounded budget of its own.
func (s *Server) RenameVenue(ctx context.Context, req *venuev1.VenueRequest) (*venuev1.Venue, error) {
	if err := s.store.Publish(ctx, req.GetVenueId(), "renamed"); err != nil { // OK
		return nil, err
	}
	defer func() {
		actx, cancel := context.WithTimeout(context.Background(), time.Second) // OK
		defer cancel()
		_ = s.store.Log(actx, "rename "+req.GetVenueId())
	}()
	return &venuev1.Venue{Id: req.GetVenueId(), Name: req.GetName()}, nil
}
