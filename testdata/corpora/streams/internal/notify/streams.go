// Package notify implements notify.v1.NotifyService with connect-go: the browser and mobile
// notification streams, receipts from push gateways, and the inbox API.
package notify

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"connectrpc.com/connect"

	notifyv1 "example.test/streams/gen/notify/v1"
	"example.test/streams/gen/notify/v1/notifyv1connect"
)

const maxDigestEntries = 20

// Handler implements notifyv1connect.NotifyServiceHandler.
type Handler struct {
	inbox    *Inbox
	prefs    *PreferenceStore
	hub      *Hub
	receipts *ReceiptWriter

	keepAlive   time.Duration
	digestEvery time.Duration
}

var _ notifyv1connect.NotifyServiceHandler = (*Handler)(nil)

// NewHandler returns a Handler.
func NewHandler(inbox *Inbox, prefs *PreferenceStore, hub *Hub, receipts *ReceiptWriter) *Handler {
	return &Handler{
		inbox:       inbox,
		prefs:       prefs,
		hub:         hub,
		receipts:    receipts,
		keepAlive:   25 * time.Second,
		digestEvery: time.Minute,
	}
}

// Mount registers the service on mux.
func (h *Handler) Mount(mux *http.ServeMux, opts ...connect.HandlerOption) {
	path, handler := notifyv1connect.NewNotifyServiceHandler(h, opts...)
	mux.Handle(path, handler)
}

// Watch streams a user's notifications to the browser: what is unread first, then new ones as
// they arrive, with announcements for everyone mixed in.
func (h *Handler) Watch(ctx context.Context, req *connect.Request[notifyv1.WatchRequest], stream *connect.ServerStream[notifyv1.Notification]) error {
	user := req.Msg.GetUserId()
	if user == "" {
		return connect.NewError(connect.CodeInvalidArgument, errors.New("user_id is required"))
	}
	var mu sync.Mutex
	send := func(n *notifyv1.Notification) error {
		mu.Lock()
		defer mu.Unlock()
		return stream.Send(n)
	}

	go func() {
		for n := range h.hub.Broadcasts() { // BUG: streamloop
			send(n)
		}
	}()

	// Proxies in front of some customers cut HTTP/2 streams that are idle for 30s.
	go func() {
		for {
			time.Sleep(h.keepAlive)
			if err := send(&notifyv1.Notification{Channel: "_keepalive"}); err != nil { // OK: the loop returns on Send's error
				return
			}
		}
	}()

	unread, err := h.inbox.List(ctx, user, 50)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return connect.NewError(connect.CodeDeadlineExceeded, err)
		}
		if errors.Is(err, context.Canceled) {
			return connect.NewError(connect.CodeCanceled, err)
		}
		return connect.NewError(connect.CodeInternal, fmt.Errorf("load unread: %w", err)) // OK: errors.Is picks deadlines and cancellations out first
	}
	for _, n := range unread {
		send(n) // OK: a loop over a slice ends on its own
	}
	for n := range h.hub.Follow(ctx, user) { // OK: Follow was given ctx and closes the channel when the client leaves
		if err := send(n); err != nil {
			return err
		}
	}
	return nil
}

// Sync is the mobile app's session: the app acks what it has shown, we push new notifications
// and badge counts.
func (h *Handler) Sync(ctx context.Context, stream *connect.BidiStream[notifyv1.SyncRequest, notifyv1.Notification]) error {
	first, err := stream.Receive()
	if err != nil {
		return err
	}
	user := first.GetUserId()
	if user == "" {
		return connect.NewError(connect.CodeInvalidArgument, errors.New("the first message must carry user_id")) // OK: validation, no call given ctx
	}
	var mu sync.Mutex
	send := func(n *notifyv1.Notification) error {
		mu.Lock()
		defer mu.Unlock()
		return stream.Send(n)
	}

	// The badge on the app icon.
	go func() {
		for {
			count := <-h.hub.BadgeChanges(user) // BUG: streamloop
			send(&notifyv1.Notification{UserId: user, Channel: "_badge", Body: strconv.FormatInt(count, 10)})
		}
	}()

	acks := make(chan []string)
	go func() {
		defer close(acks)
		for {
			req, err := stream.Receive()
			if err != nil {
				return
			}
			select { // OK: the hand-off has a ctx.Done case, and Receive's error ends the loop
			case acks <- req.GetAckedIds():
			case <-ctx.Done():
				return
			}
		}
	}()

	incoming := h.hub.Follow(ctx, user)
	for {
		select { // OK: a case for ctx.Done ends the session
		case <-ctx.Done():
			return nil
		case ids, ok := <-acks:
			if !ok {
				return nil
			}
			if _, err := h.inbox.MarkRead(ctx, user, ids); err != nil {
				return err // OK: the error is returned unchanged, its code intact
			}
		case n := <-incoming:
			if err := send(n); err != nil {
				return err
			}
		}
	}
}

// UploadReceipts takes delivery receipts from the push gateways.
func (h *Handler) UploadReceipts(ctx context.Context, stream *connect.ClientStream[notifyv1.Receipt]) (*connect.Response[notifyv1.UploadReceiptsResponse], error) {
	var batch []*notifyv1.Receipt
	for i := 0; stream.Receive(); i++ { // OK: Receive returns false once the gateway is done or gone
		r := stream.Msg()
		if err := validateReceipt(r); err != nil {
			return nil, connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("receipt %d: %w", i, err)) // OK: a validation error, no call given ctx
		}
		batch = append(batch, r)
	}
	if err := stream.Err(); err != nil {
		return nil, err
	}
	h.receipts.Add(batch)

	// Gateways resend on any error, so answer only once the receipts are written.
	waitFlushed := func() {
		for h.receipts.Pending() > 0 {
			<-h.receipts.Flushed() // BUG: streamloop
		}
	}
	waitFlushed()
	return connect.NewResponse(&notifyv1.UploadReceiptsResponse{Stored: int64(len(batch))}), nil
}

// Digest streams the unread count per channel, then keeps it fresh while the panel is open.
func (h *Handler) Digest(ctx context.Context, req *connect.Request[notifyv1.DigestRequest], stream *connect.ServerStream[notifyv1.DigestEntry]) error {
	user := req.Msg.GetUserId()
	counts, err := h.inbox.UnreadByChannel(ctx, user)
	if err != nil {
		return connect.NewError(connect.CodeInternal, fmt.Errorf("unread counts of %s: %w", user, err)) // BUG: statusmask
	}
	channels := slices.Sorted(maps.Keys(counts))
	for i := 0; i < len(channels) && i < maxDigestEntries; i++ {
		stream.Send(&notifyv1.DigestEntry{Channel: channels[i], Unread: counts[channels[i]]}) // OK: a counted loop ends on its own
	}
	for {
		time.Sleep(h.digestEvery)
		stream.Send(h.hub.LatestDigest(user)) // BUG: streamloop
	}
}

func validateReceipt(r *notifyv1.Receipt) error {
	if r.GetNotificationId() == "" {
		return errors.New("notification_id is required")
	}
	if r.GetGateway() == "" {
		return errors.New("gateway is required")
	}
	return nil
}
