package notify

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log"
	"strings"
	"sync"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/types/known/timestamppb"

	notifyv1 "example.test/streams/gen/notify/v1"
)

// Inbox is the notifications table.
type Inbox struct {
	db *sql.DB
}

// NewInbox returns an Inbox on db.
func NewInbox(db *sql.DB) *Inbox { return &Inbox{db: db} }

// List returns a user's newest notifications.
func (in *Inbox) List(ctx context.Context, user string, limit int) ([]*notifyv1.Notification, error) {
	rows, err := in.db.QueryContext(ctx,
		`SELECT id, channel, title, body, created_at FROM notifications
		 WHERE user_id = $1 AND NOT muted ORDER BY created_at DESC LIMIT $2`, user, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*notifyv1.Notification
	for rows.Next() {
		n := &notifyv1.Notification{UserId: user}
		var created time.Time
		if err := rows.Scan(&n.Id, &n.Channel, &n.Title, &n.Body, &created); err != nil {
			return nil, err
		}
		n.CreatedAt = timestamppb.New(created)
		out = append(out, n)
	}
	return out, rows.Err()
}

// MarkRead marks notifications read and returns how many changed.
func (in *Inbox) MarkRead(ctx context.Context, user string, ids []string) (int64, error) {
	res, err := in.db.ExecContext(ctx,
		`UPDATE notifications SET read_at = now() WHERE user_id = $1 AND id = ANY($2) AND read_at IS NULL`,
		user, "{"+strings.Join(ids, ",")+"}")
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// Mute hides a channel's notifications until a time.
func (in *Inbox) Mute(ctx context.Context, user, channel string, until time.Time) error {
	_, err := in.db.ExecContext(ctx,
		`INSERT INTO mutes (user_id, channel, until) VALUES ($1, $2, $3)
		 ON CONFLICT (user_id, channel) DO UPDATE SET until = excluded.until`, user, channel, until)
	return err
}

// UnreadByChannel counts a user's unread notifications per channel.
func (in *Inbox) UnreadByChannel(ctx context.Context, user string) (map[string]int64, error) {
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

// PreferenceStore keeps per-user delivery preferences.
type PreferenceStore struct {
	db *sql.DB
}

// NewPreferenceStore returns a PreferenceStore on db.
func NewPreferenceStore(db *sql.DB) *PreferenceStore { return &PreferenceStore{db: db} }

// Load returns a user's preferences, or a connect error with CodeNotFound if there are none.
func (p *PreferenceStore) Load(ctx context.Context, user string) (*notifyv1.Preferences, error) {
	prefs := &notifyv1.Preferences{UserId: user}
	var muted string
	err := p.db.QueryRowContext(ctx,
		`SELECT muted_channels, email_digest, quiet_hours FROM preferences WHERE user_id = $1`, user,
	).Scan(&muted, &prefs.EmailDigest, &prefs.QuietHours)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, connect.NewError(connect.CodeNotFound, fmt.Errorf("no preferences for %s", user))
	}
	if err != nil {
		return nil, err
	}
	if muted != "" {
		prefs.MutedChannels = strings.Split(muted, ",")
	}
	return prefs, nil
}

// Save upserts a user's preferences.
func (p *PreferenceStore) Save(ctx context.Context, prefs *notifyv1.Preferences) error {
	_, err := p.db.ExecContext(ctx,
		`INSERT INTO preferences (user_id, muted_channels, email_digest, quiet_hours) VALUES ($1, $2, $3, $4)
		 ON CONFLICT (user_id) DO UPDATE SET muted_channels = excluded.muted_channels,
		   email_digest = excluded.email_digest, quiet_hours = excluded.quiet_hours`,
		prefs.GetUserId(), strings.Join(prefs.GetMutedChannels(), ","), prefs.GetEmailDigest(), prefs.GetQuietHours())
	return err
}

// Hub fans new notifications out to connected clients.
type Hub struct {
	mu         sync.Mutex
	followers  map[string]map[chan *notifyv1.Notification]struct{}
	broadcasts chan *notifyv1.Notification
	badges     map[string]chan int64
	digests    map[string]*notifyv1.DigestEntry
}

// NewHub returns an empty hub.
func NewHub() *Hub {
	return &Hub{
		followers:  map[string]map[chan *notifyv1.Notification]struct{}{},
		broadcasts: make(chan *notifyv1.Notification, 16),
		badges:     map[string]chan int64{},
		digests:    map[string]*notifyv1.DigestEntry{},
	}
}

// Follow delivers a user's new notifications until ctx is done; the channel is closed then.
func (h *Hub) Follow(ctx context.Context, user string) <-chan *notifyv1.Notification {
	ch := make(chan *notifyv1.Notification, 32)
	h.mu.Lock()
	if h.followers[user] == nil {
		h.followers[user] = map[chan *notifyv1.Notification]struct{}{}
	}
	h.followers[user][ch] = struct{}{}
	h.mu.Unlock()
	context.AfterFunc(ctx, func() {
		h.mu.Lock()
		delete(h.followers[user], ch)
		h.mu.Unlock()
		close(ch)
	})
	return ch
}

// Broadcasts returns the channel of announcements meant for every user. It is never closed.
func (h *Hub) Broadcasts() <-chan *notifyv1.Notification { return h.broadcasts }

// BadgeChanges returns the channel a user's unread count is published on. It lives as long as
// the hub and is shared by all of the user's devices.
func (h *Hub) BadgeChanges(user string) <-chan int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	ch, ok := h.badges[user]
	if !ok {
		ch = make(chan int64, 1)
		h.badges[user] = ch
	}
	return ch
}

// LatestDigest returns the digest entry the aggregator computed last for a user.
func (h *Hub) LatestDigest(user string) *notifyv1.DigestEntry {
	h.mu.Lock()
	defer h.mu.Unlock()
	if d, ok := h.digests[user]; ok {
		return d
	}
	return &notifyv1.DigestEntry{Channel: "all"}
}

// Deliver hands a new notification to the user's followers without blocking.
func (h *Hub) Deliver(n *notifyv1.Notification) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.followers[n.GetUserId()] {
		select {
		case ch <- n:
		default:
		}
	}
}

// ReceiptWriter buffers delivery receipts and writes them in batches.
type ReceiptWriter struct {
	db      *sql.DB
	mu      sync.Mutex
	pending []*notifyv1.Receipt
	flushed chan struct{}
}

// NewReceiptWriter returns a writer; Run must be started.
func NewReceiptWriter(db *sql.DB) *ReceiptWriter {
	return &ReceiptWriter{db: db, flushed: make(chan struct{}, 1)}
}

// Add queues receipts for the next flush.
func (w *ReceiptWriter) Add(rs []*notifyv1.Receipt) {
	w.mu.Lock()
	w.pending = append(w.pending, rs...)
	w.mu.Unlock()
}

// Pending returns how many receipts wait to be written.
func (w *ReceiptWriter) Pending() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.pending)
}

// Flushed is signalled after every flush. It is never closed.
func (w *ReceiptWriter) Flushed() <-chan struct{} { return w.flushed }

// Run flushes every interval until ctx is done.
func (w *ReceiptWriter) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		w.mu.Lock()
		batch := w.pending
		w.pending = nil
		w.mu.Unlock()
		for _, r := range batch {
			if _, err := w.db.ExecContext(ctx,
				`INSERT INTO receipts (notification_id, gateway, delivered) VALUES ($1, $2, $3)`,
				r.GetNotificationId(), r.GetGateway(), r.GetDelivered()); err != nil {
				log.Printf("notify: receipt %s: %v", r.GetNotificationId(), err)
			}
		}
		select {
		case w.flushed <- struct{}{}:
		default:
		}
	}
}
