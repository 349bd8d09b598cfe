// Package riderpush serves notify.v1.NotifyService over connect-go: ride receipts, trip
// updates and the rider chat.
package riderpush

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/smtp"
	"time"

	"connectrpc.com/connect"

	notifyv1 "example.test/shapes4/gen/notify/v1"
	"example.test/shapes4/gen/notify/v1/notifyv1connect"
	"example.test/shapes4/internal/tripstore"
)

// Mailer sends a receipt.
type Mailer interface {
	Send(ctx context.Context, to, body string) error
}

// relayMailer hands mails to the local relay, giving up when ctx ends.
type relayMailer struct {
	addr string
	from string
}

// NewMailer returns the Mailer of the local SMTP relay.
func NewMailer(addr, from string) Mailer { return relayMailer{addr: addr, from: from} }

func (m relayMailer) Send(ctx context.Context, to, body string) error {
	done := make(chan error, 1)
	go func() { done <- smtp.SendMail(m.addr, nil, m.from, []string{to}, []byte(body)) }()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case err := <-done:
		return err
	}
}

// Handler implements notifyv1connect.NotifyServiceHandler.
type Handler struct {
	notifyv1connect.UnimplementedNotifyServiceHandler

	st    *tripstore.Store
	mail  Mailer
	httpc *http.Client
	log   *slog.Logger
}

// NewHandler builds the handler.
func NewHandler(st *tripstore.Store, mail Mailer, log *slog.Logger) *Handler {
	return &Handler{st: st, mail: mail, httpc: &http.Client{Timeout: 10 * time.Second}, log: log}
}

// Mount returns the path and http.Handler to mount on the server's mux.
func Mount(h *Handler, opts ...connect.HandlerOption) (string, http.Handler) {
	return notifyv1connect.NewNotifyServiceHandler(h, opts...)
}

// SendTicket mails the receipt of a ride.
func (h *Handler) SendTicket(ctx context.Context, req *connect.Request[notifyv1.TicketRequest]) (*connect.Response[notifyv1.TicketResponse], error) {
	r, err := h.st.Load(ctx, req.Msg.GetBookingId())
	if err != nil {
		return nil, connect.NewError(connect.CodeNotFound, err)
	}
	body := fmt.Sprintf("Your ride %s, seat %s: %d.%02d", r.ID, r.SeatID, r.FareCents/100, r.FareCents%100)
	if err := h.mail.Send(ctx, req.Msg.GetEmail(), body); err != nil { // OK: the only implementation works with its ctx
		return nil, err
	}
	h.warmTrip(r.TripID) // OK: the fresh budget runs in a goroutine the callee starts

	if err := h.record(ctx, "receipt.sent", r.ID); err != nil { // OK: record falls back to Background only for a nil ctx
		return nil, err
	}
	return connect.NewResponse(&notifyv1.TicketResponse{Id: r.ID, Sent: 1}), nil
}

// Resend queues the receipt again; the relay mails it.
func (h *Handler) Resend(ctx context.Context, req *connect.Request[notifyv1.TicketRequest]) (*connect.Response[notifyv1.TicketResponse], error) {
	if _, err := h.st.Load(ctx, req.Msg.GetBookingId()); err != nil {
		return nil, connect.NewError(connect.CodeNotFound, err)
	}
	if err := h.st.Append(context.Background(), "receipt.resend", req.Msg.GetBookingId()); err != nil { // BUG: ctxbackground
		return nil, err
	}
	return connect.NewResponse(&notifyv1.TicketResponse{Id: req.Msg.GetBookingId()}), nil
}

// warmTrip loads the other rides of a trip in the background, so that their receipts go
// out faster.
func (h *Handler) warmTrip(tripID string) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := h.st.ByTrip(ctx, tripID); err != nil {
			h.log.Debug("warm trip", "trip", tripID, "err", err)
		}
	}()
}

// record writes an outbox row; callers without a ctx pass nil.
func (h *Handler) record(ctx context.Context, kind, id string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	return h.st.Append(ctx, kind, id)
}

// WatchOrders streams the state of a booking until it ends.
func (h *Handler) WatchOrders(ctx context.Context, req *connect.Request[notifyv1.TicketRequest], stream *connect.ServerStream[notifyv1.OrderUpdate]) error {
	stop := context.AfterFunc(ctx, func() {
		actx, cancel := context.WithTimeout(context.Background(), time.Second) // OK: runs only once the request's ctx is done (context.AfterFunc)
		defer cancel()
		_ = h.st.Append(actx, "watch.abandoned", req.Msg.GetBookingId())
	})
	defer stop()
	last := ""
	for {
		r, err := h.st.Load(ctx, req.Msg.GetBookingId()) // OK: the connect stream's ctx
		if err != nil {
			return err
		}
		if r.State != last {
			if err := stream.Send(&notifyv1.OrderUpdate{BookingId: r.ID, State: r.State}); err != nil {
				return err
			}
			last = r.State
		}
		if r.State == "completed" || r.State == "cancelled" {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// UploadRecipients takes a list of receipt recipients; each may carry the URL of a logo to
// check before it is used in the mail.
func (h *Handler) UploadRecipients(ctx context.Context, stream *connect.ClientStream[notifyv1.TicketRequest]) (*connect.Response[notifyv1.TicketResponse], error) {
	var sent int32
	for stream.Receive() {
		msg := stream.Msg()
		if u := msg.GetUrl(); u != "" {
			hreq, err := http.NewRequestWithContext(ctx, http.MethodHead, u, nil) // OK: the ctx-aware twin
			if err != nil {
				return nil, err
			}
			resp, err := h.httpc.Do(hreq)
			if err != nil {
				return nil, err
			}
			resp.Body.Close()
		}
		if fb := msg.GetEmail(); fb != "" && msg.GetUrl() == "" {
			resp, err := http.Get("https://gravatar.example/avatar/" + fb) // BUG: ctxless
			if err != nil {
				return nil, err
			}
			resp.Body.Close()
		}
		if err := h.st.Append(ctx, "receipt.recipient", msg.GetBookingId()); err != nil {
			return nil, err
		}
		sent++
	}
	if err := stream.Err(); err != nil {
		return nil, err
	}
	return connect.NewResponse(&notifyv1.TicketResponse{Sent: sent}), nil
}

// Chat relays a rider's chat with the driver; each message is kept in the outbox.
func (h *Handler) Chat(ctx context.Context, stream *connect.BidiStream[notifyv1.TicketRequest, notifyv1.OrderUpdate]) error {
	var last string
	for {
		msg, err := stream.Receive()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		last = msg.GetBookingId()
		if err := h.st.Append(ctx, "chat.message", last); err != nil { // OK: the connect stream's ctx
			return err
		}
		if err := stream.Send(&notifyv1.OrderUpdate{BookingId: last, State: "delivered"}); err != nil {
			return err
		}
	}
	go h.closeChat(context.WithoutCancel(ctx), last)
	// ^BUG: detach
	return nil
}

func (h *Handler) closeChat(ctx context.Context, bookingID string) {
	if err := h.st.Append(ctx, "chat.closed", bookingID); err != nil {
		h.log.WarnContext(ctx, "chat closed", "booking", bookingID, "err", err)
	}
}
