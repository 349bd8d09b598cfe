package venue

import (
	"context"

	venuev1 "example.test/shapes2/gen/venue/v1"
	"example.test/shapes2/internal/store"
)

// reads holds the read handlers; Server embeds *reads, so they are promoted.
type reads struct {
	store   *store.Store
	baseCtx context.Context
}

// GetVenue returns a venue.
func (r *reads) GetVenue(ctx context.Context, req *venuev1.VenueRequest) (*venuev1.Venue, error) {
	b, err := r.store.Load(context.TODO(), "venue:"+req.GetVenueId()) // BUG: ctxbackground
	if err != nil {
		return nil, err
	}
	return &venuev1.Venue{Id: req.GetVenueId(), Name: b.EventID}, nil
}

// GetSeatMap returns the seats of an event.
func (r *reads) GetSeatMap(ctx context.Context, req *venuev1.VenueRequest) (*venuev1.SeatMap, error) {
	seats, err := r.store.Seats(ctx, req.GetEventId(), 0) // OK
	if err != nil {
		return nil, err
	}
	more, err := r.store.Seats(r.baseCtx, req.GetEventId(), 1) // BUG: ctxflow
	if err != nil {
		return nil, err
	}
	out := &venuev1.SeatMap{}
	for _, st := range append(seats, more...) {
		out.Seats = append(out.Seats, &venuev1.Seat{Id: st.ID, State: st.State})
	}
	return out, nil
}
