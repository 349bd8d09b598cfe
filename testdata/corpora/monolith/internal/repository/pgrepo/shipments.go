package pgrepo

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"example.test/monolith/internal/platform/db"
	"example.test/monolith/internal/repository"
)

// Shipments implements repository.ShipmentStore.
type Shipments struct{ db *db.DB }

var _ repository.ShipmentStore = (*Shipments)(nil)

// NewShipments returns the Postgres shipment store.
func NewShipments(d *db.DB) *Shipments { return &Shipments{db: d} }

func (r *Shipments) Insert(ctx context.Context, s *repository.Shipment) error {
	return r.db.SQL.QueryRowContext(ctx,
		`INSERT INTO shipments (order_id, carrier, status, weight_grams, to_postcode) VALUES ($1, $2, 'created', $3, $4) RETURNING id`,
		s.OrderID, s.Carrier, s.WeightGrams, s.ToPostcode).Scan(&s.ID)
}

func (r *Shipments) Get(ctx context.Context, id string) (*repository.Shipment, error) {
	var s repository.Shipment
	var code sql.NullString
	err := r.db.SQL.QueryRowContext(ctx,
		`SELECT id, order_id, carrier, status, tracking_code, weight_grams, to_postcode FROM shipments WHERE id = $1`, id,
	).Scan(&s.ID, &s.OrderID, &s.Carrier, &s.Status, &code, &s.WeightGrams, &s.ToPostcode)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, repository.ErrNotFound
	}
	s.TrackingCode = code.String
	return &s, err
}

func (r *Shipments) SetStatus(ctx context.Context, id, status string) error {
	_, err := r.db.SQL.ExecContext(ctx, `UPDATE shipments SET status = $2 WHERE id = $1`, id, status)
	return err
}

func (r *Shipments) Events(ctx context.Context, id string, limit int) ([]repository.ShipmentEvent, error) {
	var out []repository.ShipmentEvent
	err := r.db.QueryRows(ctx,
		`SELECT shipment_id, status, location, at FROM shipment_events WHERE shipment_id = $1 ORDER BY at DESC LIMIT $2`,
		func(rows *sql.Rows) error {
			var e repository.ShipmentEvent
			if err := rows.Scan(&e.ShipmentID, &e.Status, &e.Location, &e.At); err != nil {
				return err
			}
			out = append(out, e)
			return nil
		}, id, limit)
	return out, err
}

func (r *Shipments) Carriers(ctx context.Context, country string) ([]repository.Carrier, error) {
	qctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	var out []repository.Carrier
	err := r.db.QueryRows(qctx,
		`SELECT code, name, api_host, country, active FROM carriers WHERE country = $1 ORDER BY name`,
		func(rows *sql.Rows) error {
			var c repository.Carrier
			if err := rows.Scan(&c.Code, &c.Name, &c.Host, &c.Country, &c.Active); err != nil {
				return err
			}
			out = append(out, c)
			return nil
		}, country)
	return out, err
}
