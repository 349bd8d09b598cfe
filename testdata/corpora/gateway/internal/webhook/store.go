// Package webhook delivers the gateway's webhooks (route changes, key
// rotations, quota warnings) to customer endpoints.
package webhook

import (
	"context"
	"database/sql"
	"time"
)

// Delivery is one queued webhook delivery.
type Delivery struct {
	ID        int64
	AccountID string
	URL       string
	Event     string
	Payload   []byte
	Attempts  int
	LeaseTill time.Time
}

// Store is the webhook_deliveries queue table.
type Store struct {
	db *sql.DB
}

// NewStore returns a store over db.
func NewStore(db *sql.DB) *Store { return &Store{db: db} }

// Lease claims up to n due deliveries for lease.
func (s *Store) Lease(ctx context.Context, n int, lease time.Duration) ([]Delivery, error) {
	rows, err := s.db.QueryContext(ctx, `
		UPDATE webhook_deliveries SET lease_till = now() + $2::interval, attempts = attempts + 1
		WHERE id IN (SELECT id FROM webhook_deliveries WHERE state = 'pending' AND lease_till < now()
		             ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
		RETURNING id, account_id, url, event, payload, attempts, lease_till`, n, lease.String())
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Delivery
	for rows.Next() {
		var d Delivery
		if err := rows.Scan(&d.ID, &d.AccountID, &d.URL, &d.Event, &d.Payload, &d.Attempts, &d.LeaseTill); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// MarkDelivered records a successful delivery.
func (s *Store) MarkDelivered(ctx context.Context, id int64, status int) error {
	_, err := s.db.ExecContext(ctx, `UPDATE webhook_deliveries SET state = 'delivered', last_status = $2, delivered_at = now() WHERE id = $1`, id, status)
	return err
}

// MarkSkipped records a delivery that will not be attempted.
func (s *Store) MarkSkipped(ctx context.Context, id int64, reason string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE webhook_deliveries SET state = 'skipped', last_error = $2 WHERE id = $1`, id, reason)
	return err
}

// MarkFailed records a failed attempt; the delivery becomes due again later.
func (s *Store) MarkFailed(ctx context.Context, id int64, reason string, dead bool) error {
	state := "pending"
	if dead {
		state = "dead"
	}
	_, err := s.db.ExecContext(ctx, `UPDATE webhook_deliveries SET state = $3, last_error = $2 WHERE id = $1`, id, reason, state)
	return err
}
