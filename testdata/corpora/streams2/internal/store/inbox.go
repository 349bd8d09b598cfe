package store

import (
	"context"
	"database/sql"
	"strings"
	"sync"
	"time"
)

// Inbox holds users' notifications.
type Inbox struct {
	db *sql.DB
}

// NewInbox returns an Inbox over db.
func NewInbox(db *sql.DB) *Inbox { return &Inbox{db: db} }

// Note is a stored notification.
type Note struct {
	ID      string
	UserID  string
	Channel string
	Title   string
	Body    string
	Created time.Time
}

// List returns a user's latest notifications.
func (in *Inbox) List(ctx context.Context, user string, limit int) ([]Note, error) {
	rows, err := in.db.QueryContext(ctx,
		`SELECT id, channel, title, body, created_at FROM notifications WHERE user_id = $1 ORDER BY created_at DESC LIMIT $2`,
		user, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Note
	for rows.Next() {
		n := Note{UserID: user}
		if err := rows.Scan(&n.ID, &n.Channel, &n.Title, &n.Body, &n.Created); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// Ack marks notifications read.
func (in *Inbox) Ack(ctx context.Context, user string, ids []string) (int64, error) {
	res, err := in.db.ExecContext(ctx,
		`UPDATE notifications SET read_at = now() WHERE user_id = $1 AND id = ANY(string_to_array($2, ','))`,
		user, strings.Join(ids, ","))
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// Mute mutes a channel for a user until a time.
func (in *Inbox) Mute(ctx context.Context, user, channel string, until time.Time) error {
	_, err := in.db.ExecContext(ctx,
		`INSERT INTO mutes (user_id, channel, until) VALUES ($1, $2, $3)
ON CONFLICT (user_id, channel) DO UPDATE SET until = excluded.until`, user, channel, until)
	return err
}

// Unread counts a user's unread notifications per channel.
func (in *Inbox) Unread(ctx context.Context, user string) (map[string]int64, error) {
	rows, err := in.db.QueryContext(ctx,
		`SELECT channel, count(*) FROM notifications WHERE user_id = $1 AND read_at IS NULL GROUP BY channel`, user)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var ch string
		var n int64
		if err := rows.Scan(&ch, &n); err != nil {
			return nil, err
		}
		out[ch] = n
	}
	return out, rows.Err()
}

// Prefs are a user's notification preferences.
type Prefs struct {
	UserID      string
	Muted       []string
	EmailDigest bool
	QuietHours  string
}

// Cache keeps preferences in memory; the database is the source of truth.
type Cache struct {
	mu sync.RWMutex
	m  map[string]Prefs
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{m: map[string]Prefs{}} }

// Get returns cached preferences. ctx is accepted for symmetry with the database calls.
func (c *Cache) Get(_ context.Context, user string) (Prefs, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	p, ok := c.m[user]
	if !ok {
		return Prefs{}, ErrNotFound
	}
	return p, nil
}

// Put stores preferences.
func (c *Cache) Put(p Prefs) {
	c.mu.Lock()
	c.m[p.UserID] = p
	c.mu.Unlock()
}

// Preferences loads a user's preferences.
func (in *Inbox) Preferences(ctx context.Context, user string) (Prefs, error) {
	p := Prefs{UserID: user}
	var muted string
	err := in.db.QueryRowContext(ctx,
		`SELECT muted, email_digest, quiet_hours FROM preferences WHERE user_id = $1`, user).
		Scan(&muted, &p.EmailDigest, &p.QuietHours)
	if err != nil {
		return Prefs{}, err
	}
	if muted != "" {
		p.Muted = strings.Split(muted, ",")
	}
	return p, nil
}

// SavePreferences stores a user's preferences.
func (in *Inbox) SavePreferences(ctx context.Context, p Prefs) error {
	_, err := in.db.ExecContext(ctx,
		`INSERT INTO preferences (user_id, muted, email_digest, quiet_hours) VALUES ($1, $2, $3, $4)
ON CONFLICT (user_id) DO UPDATE SET muted = excluded.muted, email_digest = excluded.email_digest, quiet_hours = excluded.quiet_hours`,
		p.UserID, strings.Join(p.Muted, ","), p.EmailDigest, p.QuietHours)
	return err
}

// SaveReceipts records push gateways' delivery receipts.
func (in *Inbox) SaveReceipts(ctx context.Context, ids []string, delivered []bool) error {
	tx, err := in.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for i, id := range ids {
		if _, err := tx.ExecContext(ctx,
			`UPDATE notifications SET delivered = $2 WHERE id = $1`, id, delivered[i]); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// Muted returns the channels a user has muted, from the cache only.
func (c *Cache) Muted(user string) map[string]bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := map[string]bool{}
	for _, ch := range c.m[user].Muted {
		out[ch] = true
	}
	return out
}
