// Package notify implements notify.v1.NotifyService with connect-go.
package notify

import (
	"context"
	"errors"
	"io"
	"net/http"
	"time"

	"connectrpc.com/connect"

	notifyv1 "example.test/shapes2/gen/notify/v1"
	"example.test/shapes2/gen/notify/v1/notifyv1connect"
	"example.test/shapes2/internal/lifecycle"
	"example.test/shapes2/internal/seq"
	"example.test/shapes2/internal/store"
)

// Mailer sends e-mail.
type Mailer struct{ st *store.Store }

// Send sends one mail.
func (m *Mailer) Send(ctx context.Context, to, body string) error {
	return m.st.Log(ctx, "mail "+to+": "+body)
}

// Handler is the connect handler.
type Handler struct {
	notifyv1connect.UnimplementedNotifyServiceHandler
	mailer *Mailer
	store  *store.Store
	http   *http.Client
}

// Mount returns the handler's path and http.Handler.
func Mount(st *store.Store) (string, http.Handler) {
	return notifyv1connect.NewNotifyServiceHandler(&Handler{mailer: &Mailer{st: st}, store: st, http: http.DefaultClient})
}

// SendTicket mails a ticket.
func (h *Handler) SendTicket(ctx context.Context, req *connect.Request[notifyv1.TicketRequest]) (*connect.Response[notifyv1.TicketResponse], error) {
	send := h.mailer.Send
	if err := send(ctx, req.Msg.GetEmail(), "ticket "+req.Msg.GetBookingId()); err != nil { // OK
		return nil, err
	}
	if err := h.mailer.Send(context.Background(), "ops@example.test", "ticket sent"); err != nil { // BUG: ctxbackground
		return nil, err
	}
	return connect.NewResponse(&notifyv1.TicketResponse{Id: req.Msg.GetBookingId(), Sent: 1}), nil
}

// Resend mails a ticket again to every address.
func (h *Handler) Resend(ctx context.Context, req *connect.Request[notifyv1.TicketRequest]) (*connect.Response[notifyv1.TicketResponse], error) {
	n := int32(0)
	for to := range seq.Strings([]string{req.Msg.GetEmail(), "archive@example.test"}) {
		if err := h.mailer.Send(ctx, to, "ticket "+req.Msg.GetBookingId()); err != nil { // OK
			return nil, err
		}
		n++
	}
	// The resend must be recorded even when the caller hangs up, within two seconds.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second) // OK
	defer cancel()
	if err := h.store.Log(rctx, "resent "+req.Msg.GetBookingId()); err != nil {
		return nil, err
	}
	return connect.NewResponse(&notifyv1.TicketResponse{Sent: n}), nil
}

// WatchOrders streams order updates.
func (h *Handler) WatchOrders(ctx context.Context, req *connect.Request[notifyv1.TicketRequest], stream *connect.ServerStream[notifyv1.OrderUpdate]) error {
	b, err := h.store.Load(ctx, req.Msg.GetBookingId()) // OK
	if err != nil {
		return err
	}
	if err := stream.Send(&notifyv1.OrderUpdate{BookingId: b.ID, State: b.State}); err != nil {
		return err
	}
	seats, err := h.store.Seats(lifecycle.Context(), b.EventID, 0) // BUG: ctxflow
	if err != nil {
		return err
	}
	for _, st := range seats {
		if err := stream.Send(&notifyv1.OrderUpdate{BookingId: b.ID, State: st.State}); err != nil {
			return err
		}
	}
	return nil
}

// UploadRecipients receives recipients and fetches each one's template.
func (h *Handler) UploadRecipients(ctx context.Context, stream *connect.ClientStream[notifyv1.TicketRequest]) (*connect.Response[notifyv1.TicketResponse], error) {
	n := int32(0)
	for stream.Receive() {
		msg := stream.Msg()
		resp, err := http.Get(msg.GetUrl()) // BUG: ctxless
		if err != nil {
			return nil, err
		}
		resp.Body.Close()
		hreq, err := http.NewRequestWithContext(ctx, http.MethodGet, msg.GetUrl(), nil) // OK
		if err != nil {
			return nil, err
		}
		if resp, err := h.http.Do(hreq); err == nil {
			resp.Body.Close()
		}
		n++
	}
	if err := stream.Err(); err != nil {
		return nil, err
	}
	return connect.NewResponse(&notifyv1.TicketResponse{Sent: n}), nil
}

// Chat relays a support chat.
func (h *Handler) Chat(ctx context.Context, stream *connect.BidiStream[notifyv1.TicketRequest, notifyv1.OrderUpdate]) error {
	for {
		msg, err := stream.Receive()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		go func() {
			_ = h.store.Log(context.Background(), "chat "+msg.GetBookingId()) // BUG: ctxbackground
		}()
		go func() {
			_ = h.store.Log(ctx, "chat seen "+msg.GetBookingId()) // OK
		}()
		if err := stream.Send(&notifyv1.OrderUpdate{BookingId: msg.GetBookingId(), State: "ack"}); err != nil {
			return err
		}
	}
}
