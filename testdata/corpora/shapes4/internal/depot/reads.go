package depot

import (
	"context"

	venuev1 "example.test/shapes4/gen/venue/v1"
	"example.test/shapes4/internal/zonedb"
)

// reads holds the read-only handlers; Server embeds it.
type reads struct {
	zones *zonedb.Repo
}

// GetVenue returns a pickup zone.
func (r *reads) GetVenue(ctx context.Context, req *venuev1.VenueRequest) (*venuev1.Venue, error) {
	z, err := r.zones.Get(ctx, req.GetVenueId()) // OK: promoted handler, request ctx
	if err != nil {
		return nil, err
	}
	r.touch(z.ID) // BUG: ctxbackground
	return &venuev1.Venue{Id: z.ID, Name: z.Name, Capacity: int32(z.Capacity)}, nil
}

// GetSeatMap returns the loading bays of a zone.
func (r *reads) GetSeatMap(ctx context.Context, req *venuev1.VenueRequest) (*venuev1.SeatMap, error) {
	if _, err := r.zones.Get(ctx, req.GetVenueId()); err != nil {
		return nil, err
	}
	r.touch(req.GetVenueId())
	bays, err := r.zones.Bays(context.TODO(), req.GetVenueId()) // BUG: ctxbackground
	if err != nil {
		return nil, err
	}
	return toSeatMap(bays), nil
}

// touch records that a zone was looked at, for the depot's busy-zone report.
func (r *reads) touch(id string) {
	_ = r.zones.Event(context.Background(), "zone.viewed", id)
}

func toSeatMap(bays []zonedb.Bay) *venuev1.SeatMap {
	m := &venuev1.SeatMap{}
	for _, b := range bays {
		m.Seats = append(m.Seats, &venuev1.Seat{Id: b.ID, Row: b.Row, State: b.State})
	}
	return m
}
