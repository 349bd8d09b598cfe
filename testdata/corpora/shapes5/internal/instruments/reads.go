package instruments

import (
	"context"
	"database/sql"

	venuev1 "example.test/shapes5/gen/venue/v1"
	"example.test/shapes5/internal/specimens"
)

type reads struct {
	db *sql.DB
	st *specimens.Store
}

// GetVenue returns one analyzer bench.
func (r *reads) GetVenue(ctx context.Context, req *venuev1.VenueRequest) (*venuev1.Venue, error) {
	v := &venuev1.Venue{Id: req.GetVenueId()}
	err := r.db.QueryRowContext(ctx, `SELECT name, capacity FROM benches WHERE id = $1`, v.Id).Scan(&v.Name, &v.Capacity) // OK: promoted handler, request ctx
	if err != nil {
		return nil, err
	}
	if err := r.noteLookup(v.Id); err != nil { // BUG: ctxbackground
		return nil, err
	}
	return v, nil
}

func (r *reads) noteLookup(bench string) error {
	_, err := r.db.ExecContext(context.Background(), `UPDATE benches SET last_lookup = now() WHERE id = $1`, bench)
	return err
}

// GetSeatMap returns the tube positions of a bench's rack.
func (r *reads) GetSeatMap(ctx context.Context, req *venuev1.VenueRequest) (*venuev1.SeatMap, error) {
	rows, err := r.db.QueryContext(ctx, `SELECT pos, rack_row, tube_state FROM rack_positions WHERE bench = $1`, req.GetVenueId()) // OK: promoted handler, request ctx
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	m := &venuev1.SeatMap{}
	for rows.Next() {
		seat := &venuev1.Seat{}
		if err := rows.Scan(&seat.Id, &seat.Row, &seat.State); err != nil {
			return nil, err
		}
		m.Seats = append(m.Seats, seat)
	}
	return m, rows.Err()
}
