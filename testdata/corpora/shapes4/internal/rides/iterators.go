package rides

import (
	"context"
	"iter"
	"time"

	bookingv1 "example.test/shapes4/gen/booking/v1"
	venuev1 "example.test/shapes4/gen/venue/v1"
	"example.test/shapes4/internal/tripstore"
)

// ReleaseExpired releases the holds that ran out, then the rides nobody touched for a day.
func (s *Server) ReleaseExpired(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.BookingList, error) {
	out := &bookingv1.BookingList{}
	cutoff := time.Now().Add(-15 * time.Minute)
	for r, err := range s.st.Expired(ctx, cutoff) { // OK: another package's iterator made with the request ctx
		if err != nil {
			return nil, err
		}
		if _, err := s.db.Exec(`UPDATE rides SET state = 'released' WHERE id = $1`, r.ID); err != nil { // BUG: ctxless
			return nil, err
		}
		out.Bookings = append(out.Bookings, toProto(r))
	}
	if req.GetCount() == 0 {
		return out, nil
	}
	for r := range s.st.Stale() { // BUG: ctxbackground
		if err := s.st.SetState(ctx, r.ID, "released"); err != nil { // OK: the loop body works with the request ctx
			return nil, err
		}
		out.Bookings = append(out.Bookings, toProto(r))
	}
	out.Total = int32(len(out.Bookings))
	return out, nil
}

// byTrip yields the rides of a trip, read with ctx.
func (s *Server) byTrip(ctx context.Context, tripID string) iter.Seq2[tripstore.Ride, error] {
	return func(yield func(tripstore.Ride, error) bool) {
		rides, err := s.st.ByTrip(ctx, tripID)
		if err != nil {
			yield(tripstore.Ride{}, err)
			return
		}
		for _, r := range rides {
			if !yield(r, nil) {
				return
			}
		}
	}
}

// byRider yields the rides of a rider, newest first.
func (s *Server) byRider(riderID string) iter.Seq2[tripstore.Ride, error] {
	return func(yield func(tripstore.Ride, error) bool) {
		rows, err := s.db.QueryContext(context.TODO(), `SELECT id FROM rides WHERE rider_id = $1 ORDER BY updated_at DESC`, riderID)
		if err != nil {
			yield(tripstore.Ride{}, err)
			return
		}
		defer rows.Close()
		for rows.Next() {
			var r tripstore.Ride
			err := rows.Scan(&r.ID)
			if !yield(r, err) {
				return
			}
		}
	}
}

// ListBookings lists the bookings of a trip, or of a rider.
func (s *Server) ListBookings(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.BookingList, error) {
	out := &bookingv1.BookingList{}
	if trip := req.GetEventId(); trip != "" {
		for r, err := range s.byTrip(ctx, trip) { // OK: package iterator made with the request ctx
			if err != nil {
				return nil, err
			}
			out.Bookings = append(out.Bookings, toProto(r))
		}
		return out, nil
	}
	for r, err := range s.byRider(req.GetUserId()) { // BUG: ctxbackground
		if err != nil {
			return nil, err
		}
		out.Bookings = append(out.Bookings, toProto(r))
	}
	return out, nil
}

// zoneMaps yields the bay map of every zone, fetched from the depot service with ctx.
func (s *Server) zoneMaps(ctx context.Context, zones []string) iter.Seq2[*venuev1.SeatMap, error] {
	return func(yield func(*venuev1.SeatMap, error) bool) {
		for _, z := range zones {
			m, err := s.zones.GetSeatMap(ctx, &venuev1.VenueRequest{VenueId: z})
			if !yield(m, err) || err != nil {
				return
			}
		}
	}
}

// overflowMaps yields the bay maps of the overflow lots, which the depot service keeps on
// a slow archive: the walk does not stop half-way.
func (s *Server) overflowMaps(zones []string) iter.Seq[*venuev1.SeatMap] {
	return func(yield func(*venuev1.SeatMap) bool) {
		bg := context.Background()
		for _, z := range zones {
			m, err := s.zones.GetSeatMap(bg, &venuev1.VenueRequest{VenueId: "overflow/" + z}) // BUG: missingdeadline
			if err != nil {
				continue
			}
			if !yield(m) {
				return
			}
		}
	}
}

// CountAvailable counts the free bays of the pickup zones, and of their overflow lots when
// the request asks for them.
func (s *Server) CountAvailable(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.BookingList, error) {
	free := 0
	for m, err := range s.zoneMaps(ctx, req.GetIds()) { // OK: the iterator calls the depot service with the request ctx
		if err != nil {
			return nil, err
		}
		free += countFree(m)
	}
	if req.GetCount() > 0 {
		for m := range s.overflowMaps(req.GetIds()) {
			free += countFree(m)
		}
	}
	for s.zonesSyncing() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		time.Sleep(50 * time.Millisecond) // OK: a poll whose every turn checks ctx.Err()
	}
	return &bookingv1.BookingList{Total: int32(free)}, nil
}

func (s *Server) zonesSyncing() bool { return false }

func countFree(m *venuev1.SeatMap) int {
	n := 0
	for _, b := range m.GetSeats() {
		if b.GetState() == "free" {
			n++
		}
	}
	return n
}
