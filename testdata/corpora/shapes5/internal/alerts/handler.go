// Package alerts serves result notifications (notify.v1.NotifyService,
// connect-go): a ticket is a result report sent to a clinician, an order
// update a change in a lab order's state.
package alerts

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

	"connectrpc.com/connect"

	notifyv1 "example.test/shapes5/gen/notify/v1"
	"example.test/shapes5/gen/notify/v1/notifyv1connect"
	"example.test/shapes5/internal/batch"
	"example.test/shapes5/internal/specimens"
)

// Handler implements notifyv1connect.NotifyServiceHandler.
type Handler struct {
	notifyv1connect.UnimplementedNotifyServiceHandler

	db      *sql.DB
	st      *specimens.Store
	client  *http.Client
	hookURL string
}

// New returns the notification handler.
func New(db *sql.DB, client *http.Client, hookURL string) *Handler {
	return &Handler{db: db, st: specimens.New(db), client: client, hookURL: hookURL}
}

// SendTicket sends a result report to the ordering clinician and the
// report's copy recipients.
func (h *Handler) SendTicket(ctx context.Context, req *connect.Request[notifyv1.TicketRequest]) (*connect.Response[notifyv1.TicketResponse], error) {
	order := req.Msg.GetBookingId()
	recipients, err := h.copyList(ctx, order)
	if err != nil {
		return nil, err
	}
	recipients = append(recipients, req.Msg.GetEmail())
	if err := batch.Each(ctx, recipients, h.deliverer(order)); err != nil { // OK: the delivery closure writes with the ctx Each hands it
		return nil, err
	}
	h.warmCopyList(order) // OK: the fresh budget runs in a goroutine the callee starts
	return connect.NewResponse(&notifyv1.TicketResponse{Id: order, Sent: int32(len(recipients))}), nil
}

func (h *Handler) copyList(ctx context.Context, order string) ([]string, error) {
	rows, err := h.db.QueryContext(ctx, `SELECT email FROM report_copies WHERE order_id = $1`, order)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var e string
		if err := rows.Scan(&e); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

func (h *Handler) deliverer(order string) func(context.Context, string) error {
	return func(ctx context.Context, email string) error {
		_, err := h.db.ExecContext(ctx, `INSERT INTO mail_outbox (order_id, email) VALUES ($1, $2)`, order, email)
		return err
	}
}

func (h *Handler) warmCopyList(order string) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if _, err := h.copyList(ctx, order); err != nil {
			slog.WarnContext(ctx, "warm copy list", "order", order, "err", err)
		}
	}()
}

// Resend sends a report again, to the clinician only.
func (h *Handler) Resend(ctx context.Context, req *connect.Request[notifyv1.TicketRequest]) (*connect.Response[notifyv1.TicketResponse], error) {
	order := req.Msg.GetBookingId()
	if err := h.record(ctx, order, "resend-requested"); err != nil { // OK: record's Background is an if-nil fallback
		return nil, err
	}
	if _, err := h.db.ExecContext(ctx, `INSERT INTO mail_outbox (order_id, email) VALUES ($1, $2)`, order, req.Msg.GetEmail()); err != nil { // OK: the request ctx
		return nil, err
	}
	if err := h.st.Event(context.Background(), order, "report-resent"); err != nil { // BUG: ctxbackground
		return nil, err
	}
	return connect.NewResponse(&notifyv1.TicketResponse{Id: order, Sent: 1}), nil
}

func (h *Handler) record(ctx context.Context, order, kind string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	return h.st.Event(ctx, order, kind)
}

// WatchOrders streams the state changes of one order until it is resulted.
func (h *Handler) WatchOrders(ctx context.Context, req *connect.Request[notifyv1.TicketRequest], stream *connect.ServerStream[notifyv1.OrderUpdate]) error {
	order := req.Msg.GetBookingId()
	stop := context.AfterFunc(ctx, func() {
		c, cancel := context.WithTimeout(context.Background(), 2*time.Second) // OK: runs only once the request ctx is done
		defer cancel()
		_ = h.st.Event(c, order, "watch-ended")
	})
	defer stop()
	for {
		sp, err := h.st.Load(ctx, order) // OK: the request ctx
		if err != nil {
			return err
		}
		if err := stream.Send(&notifyv1.OrderUpdate{BookingId: order, State: sp.State}); err != nil {
			return err
		}
		if sp.State == "resulted" {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Second):
		}
	}
}

// UploadRecipients takes a stream of recipients and registers each with the
// hospital's directory webhook.
func (h *Handler) UploadRecipients(ctx context.Context, stream *connect.ClientStream[notifyv1.TicketRequest]) (*connect.Response[notifyv1.TicketResponse], error) {
	var sent int32
	for stream.Receive() {
		m := stream.Msg()
		body, err := json.Marshal(map[string]string{"order": m.GetBookingId(), "email": m.GetEmail()})
		if err != nil {
			return nil, err
		}
		if m.GetUrl() != "" {
			resp, err := http.Post(m.GetUrl(), "application/json", bytes.NewReader(body)) // BUG: ctxless
			if err != nil {
				return nil, err
			}
			resp.Body.Close()
		}
		hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, h.hookURL, bytes.NewReader(body)) // OK: NewRequestWithContext, the twin of http.Post
		if err != nil {
			return nil, err
		}
		resp, err := h.client.Do(hreq)
		if err != nil {
			return nil, err
		}
		resp.Body.Close()
		sent++
	}
	if err := stream.Err(); err != nil {
		return nil, err
	}
	return connect.NewResponse(&notifyv1.TicketResponse{Sent: sent}), nil
}

// Chat is the clinician's thread on an order: questions in, state updates
// out.
func (h *Handler) Chat(ctx context.Context, stream *connect.BidiStream[notifyv1.TicketRequest, notifyv1.OrderUpdate]) error {
	var last string
	for {
		m, err := stream.Receive()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		last = m.GetBookingId()
		sp, err := h.st.Load(ctx, last) // OK: the request ctx
		if err != nil {
			return err
		}
		if err := stream.Send(&notifyv1.OrderUpdate{BookingId: last, State: sp.State}); err != nil {
			return err
		}
	}
	if last == "" {
		return nil
	}
	go h.closeThread(context.WithoutCancel(ctx), last)
	// ^BUG: detach

	// the clinician's read receipt is kept even when the thread is closed
	// from the client side; the insert is quick or not worth waiting for
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second) // OK: bounded, with a reason
	defer cancel()
	return h.st.Event(rctx, last, fmt.Sprintf("read-receipt:%d", time.Now().Unix()))
}

func (h *Handler) closeThread(ctx context.Context, order string) {
	if _, err := h.db.ExecContext(ctx, `UPDATE report_threads SET closed_at = now() WHERE order_id = $1`, order); err != nil {
		slog.WarnContext(ctx, "close thread", "order", order, "err", err)
	}
}
