package store

import (
	"context"
	"time"
)

// Notification is one stored notification.
type Notification struct {
	ID      string
	Tenant  string
	Channel string
	Body    string
	Created time.Time
}

// SaveNotification stores a notification and returns its id.
func (r *Repo) SaveNotification(ctx context.Context, n Notification) (string, error) {
	var id string
	err := r.db.QueryRowContext(ctx,
		`INSERT INTO notifications (tenant, channel, body) VALUES ($1, $2, $3) RETURNING id`,
		n.Tenant, n.Channel, n.Body).Scan(&id)
	return id, err
}

// AddSubscription registers a live subscriber for a tenant.
func (r *Repo) AddSubscription(ctx context.Context, tenant, node string) (string, error) {
	var id string
	err := r.db.QueryRowContext(ctx,
		`INSERT INTO subscriptions (tenant, node) VALUES ($1, $2) RETURNING id`, tenant, node).Scan(&id)
	return id, err
}

// DropSubscription removes a subscriber.
func (r *Repo) DropSubscription(ctx context.Context, id string) error {
	_, err := r.db.ExecContext(ctx, `DELETE FROM subscriptions WHERE id = $1`, id)
	return err
}

// Template loads a notification template by name.
func (r *Repo) Template(ctx context.Context, name string) (string, error) {
	var body string
	err := r.db.QueryRowContext(ctx, `SELECT body FROM templates WHERE name = $1`, name).Scan(&body)
	return body, err
}
