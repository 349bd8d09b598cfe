// Package notify serves notify.v1.NotificationService over connect.
package notify

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"connectrpc.com/connect"
	"github.com/lib/pq"

	"example.test/acme/mailer"
	notifyv1 "example.test/monolith/gen/notify/v1"
	"example.test/monolith/gen/notify/v1/notifyv1connect"
	"example.test/monolith/internal/platform/db"
	"example.test/monolith/internal/platform/events"
	"example.test/monolith/internal/repository"
	"example.test/monolith/internal/repository/pgrepo"
	"example.test/monolith/pkg/legacy"
)

// Outbox queues messages for the channels that are delivered asynchronously (SMS, push).
type Outbox interface {
	Enqueue(ctx context.Context, channel, accountID string, payload []byte) (string, error)
}

// Handler implements notifyv1connect.NotificationServiceHandler.
type Handler struct {
	notifyv1connect.UnimplementedNotificationServiceHandler

	ctx       context.Context
	db        *sql.DB
	prefs     repository.PreferenceStore
	mailer    *mailer.Mailer
	templates *legacy.Client
	outbox    Outbox
	bus       *events.Publisher
	hub       *Hub
	log       *slog.Logger
}

// NewHandler returns the handler. ctx is the server lifetime.
func NewHandler(ctx context.Context, d *db.DB, m *mailer.Mailer, templates *legacy.Client, outbox Outbox, bus *events.Publisher, log *slog.Logger) *Handler {
	return &Handler{
		ctx:       ctx,
		db:        d.SQL,
		prefs:     pgrepo.NewPreferences(d),
		mailer:    m,
		templates: templates,
		outbox:    outbox,
		bus:       bus,
		hub:       NewHub(),
		log:       log,
	}
}

// Hub fans notifications out to live subscribers.
type Hub struct {
	mu   sync.Mutex
	subs map[string][]chan *notifyv1.Notification
}

// NewHub returns an empty hub.
func NewHub() *Hub { return &Hub{subs: map[string][]chan *notifyv1.Notification{}} }

// Subscribe registers a listener for an account.
func (h *Hub) Subscribe(accountID string) (<-chan *notifyv1.Notification, func()) {
	ch := make(chan *notifyv1.Notification, 16)
	h.mu.Lock()
	h.subs[accountID] = append(h.subs[accountID], ch)
	h.mu.Unlock()
	return ch, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		list := h.subs[accountID]
		for i, c := range list {
			if c == ch {
				h.subs[accountID] = append(list[:i], list[i+1:]...)
				break
			}
		}
	}
}

// Publish delivers n to the live subscribers of an account.
func (h *Hub) Publish(accountID string, n *notifyv1.Notification) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, ch := range h.subs[accountID] {
		select {
		case ch <- n:
		default:
		}
	}
}

func (h *Handler) Send(ctx context.Context, req *connect.Request[notifyv1.SendRequest]) (*connect.Response[notifyv1.SendResponse], error) {
	m := req.Msg
	prefs, err := h.prefs.Get(ctx, m.GetAccountId()) // OK
	if err != nil {
		return nil, connect.NewError(connect.CodeInternal, err)
	}
	body, err := h.templates.GetContext(ctx, "template."+m.GetTemplate()) // OK
	if errors.Is(err, legacy.ErrNoSetting) {
		return nil, connect.NewError(connect.CodeNotFound, fmt.Errorf("unknown template %q", m.GetTemplate()))
	}
	if err != nil {
		return nil, connect.NewError(connect.CodeInternal, err)
	}
	body = render(body, m.GetVars())

	var id string
	switch m.GetChannel() {
	case "", "email":
		if !prefs.Email {
			return nil, connect.NewError(connect.CodeFailedPrecondition, errors.New("email disabled by recipient"))
		}
		if err := h.mailer.Send(ctx, mailer.Message{To: m.GetVars()["email"], Subject: m.GetTemplate(), Body: body}); err != nil { // OK
			return nil, connect.NewError(connect.CodeUnavailable, err)
		}
		id = fmt.Sprintf("mail-%d", time.Now().UnixNano())
	default:
		id, err = h.outbox.Enqueue(h.ctx, m.GetChannel(), m.GetAccountId(), []byte(body)) // BUG: ctxflow
		if err != nil {
			return nil, connect.NewError(connect.CodeUnavailable, err)
		}
	}

	//deadlinelint:detach the delivery receipt is written after the provider accepted the message; losing it means a duplicate send on retry
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second) // OK
	defer cancel()
	if _, err := h.db.ExecContext(rctx, `INSERT INTO notification_receipts (id, account_id, template) VALUES ($1, $2, $3)`, // OK
		id, m.GetAccountId(), m.GetTemplate()); err != nil {
		h.log.WarnContext(ctx, "receipt not stored", "id", id, "err", err)
	}
	h.hub.Publish(m.GetAccountId(), &notifyv1.Notification{Id: id, Title: m.GetTemplate(), Body: body, AtUnix: time.Now().Unix()})
	return connect.NewResponse(&notifyv1.SendResponse{MessageId: id}), nil
}

func (h *Handler) GetPreferences(ctx context.Context, req *connect.Request[notifyv1.GetPreferencesRequest]) (*connect.Response[notifyv1.Preferences], error) {
	p := &notifyv1.Preferences{AccountId: req.Msg.GetAccountId()}
	var quiet sql.NullString
	row := h.db.QueryRow(`SELECT email, sms, push, quiet_hours FROM notification_prefs WHERE account_id = $1`, p.AccountId) // BUG: ctxless
	err := row.Scan(&p.Email, &p.Sms, &p.Push, &quiet)
	if errors.Is(err, sql.ErrNoRows) {
		p.Email = true
		return connect.NewResponse(p), nil
	}
	if err != nil {
		return nil, connect.NewError(connect.CodeInternal, err)
	}
	p.QuietHours = quiet.String
	return connect.NewResponse(p), nil
}

func (h *Handler) UpdatePreferences(ctx context.Context, req *connect.Request[notifyv1.UpdatePreferencesRequest]) (*connect.Response[notifyv1.Preferences], error) {
	p := req.Msg.GetPreferences()
	if p.GetAccountId() == "" {
		return nil, connect.NewError(connect.CodeInvalidArgument, errors.New("account_id required"))
	}
	tx, err := h.db.BeginTx(ctx, nil) // OK
	if err != nil {
		return nil, connect.NewError(connect.CodeInternal, err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, // OK
		`INSERT INTO notification_prefs (account_id, email, sms, push, quiet_hours) VALUES ($1, $2, $3, $4, $5)
		 ON CONFLICT (account_id) DO UPDATE SET email = $2, sms = $3, push = $4, quiet_hours = $5`,
		p.GetAccountId(), p.GetEmail(), p.GetSms(), p.GetPush(), p.GetQuietHours()); err != nil {
		return nil, connect.NewError(connect.CodeInternal, err)
	}
	if _, err := tx.Exec(`INSERT INTO prefs_history (account_id, changed_at) VALUES ($1, now())`, p.GetAccountId()); err != nil { // BUG: ctxless
		return nil, connect.NewError(connect.CodeInternal, err)
	}
	if err := tx.Commit(); err != nil { // OK
		return nil, connect.NewError(connect.CodeInternal, err)
	}
	if err := h.bus.Publish(context.Background(), "notify.prefs_updated", p.GetAccountId(), p); err != nil { // BUG: ctxbackground
		h.log.WarnContext(ctx, "prefs event not published", "err", err)
	}
	return connect.NewResponse(p), nil
}

func (h *Handler) Subscribe(ctx context.Context, req *connect.Request[notifyv1.SubscribeRequest], stream *connect.ServerStream[notifyv1.Notification]) error {
	accountID := req.Msg.GetAccountId()
	ch, unsubscribe := h.hub.Subscribe(accountID)
	defer unsubscribe()

	backlog, err := h.pending(ctx, accountID) // OK
	if err != nil {
		return connect.NewError(connect.CodeInternal, err)
	}
	var ids []string
	for _, n := range backlog {
		if err := stream.Send(n); err != nil {
			return err
		}
		ids = append(ids, n.GetId())
	}
	if len(ids) > 0 {
		h.markDelivered(ids) // BUG: ctxbackground
	}
	for {
		select {
		case <-ctx.Done(): // OK
			return nil
		case n := <-ch:
			if err := stream.Send(n); err != nil {
				return err
			}
		}
	}
}

func (h *Handler) pending(ctx context.Context, accountID string) ([]*notifyv1.Notification, error) {
	rows, err := h.db.QueryContext(ctx,
		`SELECT id, title, body, created_at FROM notifications WHERE account_id = $1 AND delivered_at IS NULL ORDER BY created_at LIMIT 100`,
		accountID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*notifyv1.Notification
	for rows.Next() {
		var n notifyv1.Notification
		var at time.Time
		if err := rows.Scan(&n.Id, &n.Title, &n.Body, &at); err != nil {
			return nil, err
		}
		n.AtUnix = at.Unix()
		out = append(out, &n)
	}
	return out, rows.Err()
}

func (h *Handler) markDelivered(ids []string) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, err := h.db.ExecContext(ctx, `UPDATE notifications SET delivered_at = now() WHERE id = ANY($1)`, pq.Array(ids)); err != nil {
		h.log.Warn("mark delivered failed", "count", len(ids), "err", err)
	}
}
