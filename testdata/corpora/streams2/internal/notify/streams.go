package notify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"sync"

	"connectrpc.com/connect"

	notifyv1 "example.test/streams2/gen/notify/v1"
	"example.test/streams2/internal/pubsub"
)

const catchUp = 50

// Watch streams a user's notifications: first the latest ones, then new ones as they arrive,
// for the user and for the channels the client asks for.
func (h *Handler) Watch(ctx context.Context, req *connect.Request[notifyv1.WatchRequest], stream *connect.ServerStream[notifyv1.Notification]) error {
	user := req.Msg.GetUserId()
	notes, err := h.inbox.List(ctx, user, catchUp)
	if err != nil {
		return connect.NewError(connect.CodeUnavailable, err) // BUG: statusmask
	}
	for _, n := range notes { // OK: ranges over a slice
		if err := stream.Send(noteToProto(n)); err != nil {
			return err
		}
	}

	topics := []string{userTopic(user)}
	for _, c := range req.Msg.GetChannels() {
		topics = append(topics, channelTopic(c))
	}
	merged := make(chan pubsub.Message)
	for _, t := range topics {
		go func() {
			for m := range h.hub.Subscribe(t) { // BUG: streamloop
				merged <- m
			}
		}()
	}
	for {
		m, ok := <-merged // OK: channel made in the handler, Send error returned
		if !ok {
			return nil
		}
		if err := stream.Send(decode(m)); err != nil {
			return err
		}
	}
}

// Sync is the mobile app's session. The first message names the user; every message may ack
// notifications the app has shown. The server pushes new notifications, and the ids of those
// read on another device so that the app can drop them.
func (h *Handler) Sync(ctx context.Context, stream *connect.BidiStream[notifyv1.SyncRequest, notifyv1.Notification]) error {
	first, err := stream.Receive()
	if err != nil {
		return err
	}
	user := first.GetUserId()
	var mu sync.Mutex
	go h.forward(ctx, user, stream, &mu)
	go func() {
		reads := h.hub.Subscribe(readTopic(user))
		defer h.hub.Unsubscribe(readTopic(user), reads)
		for m := range reads { // OK: ctx.Err() checked every turn
			if ctx.Err() != nil {
				return
			}
			mu.Lock()
			stream.Send(&notifyv1.Notification{Id: string(m.Payload), UserId: user, Channel: "$read"})
			mu.Unlock()
		}
	}()

	for req := first; ; {
		if ids := req.GetAckedIds(); len(ids) > 0 {
			if _, err := h.inbox.Ack(ctx, user, ids); err != nil {
				return err // OK: returned unchanged
			}
		}
		req, err = stream.Receive() // OK: returns on Receive errors
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// forward pushes a user's new notifications to a Sync session, skipping muted channels.
func (h *Handler) forward(ctx context.Context, user string, stream *connect.BidiStream[notifyv1.SyncRequest, notifyv1.Notification], mu *sync.Mutex) {
	if p, err := h.inbox.Preferences(ctx, user); err == nil {
		h.cache.Put(p)
	}
	muted := h.cache.Muted(user)
	sub := h.hub.Subscribe(userTopic(user))
	defer h.hub.Unsubscribe(userTopic(user), sub)
	for {
		select { // BUG: streamloop
		case m := <-sub:
			n := decode(m)
			if muted[n.GetChannel()] {
				continue
			}
			mu.Lock()
			stream.Send(n)
			mu.Unlock()
		case who := <-prefsChanged:
			if who == user {
				muted = h.cache.Muted(user)
			}
		}
	}
}

// Digest streams one entry per channel with unread notifications.
func (h *Handler) Digest(ctx context.Context, req *connect.Request[notifyv1.DigestRequest], stream *connect.ServerStream[notifyv1.DigestEntry]) error {
	counts, err := h.inbox.Unread(ctx, req.Msg.GetUserId())
	if err != nil {
		return connect.NewError(connect.CodeInternal, fmt.Errorf("unread counts: %w", err)) // BUG: statusmask
	}
	for ch, n := range counts { // OK: ranges over a map
		stream.Send(&notifyv1.DigestEntry{Channel: ch, Unread: n})
	}
	return nil
}

// UploadReceipts takes a push gateway's delivery receipts and answers once they are stored.
func (h *Handler) UploadReceipts(ctx context.Context, stream *connect.ClientStream[notifyv1.Receipt]) (*connect.Response[notifyv1.UploadReceiptsResponse], error) {
	var b receiptBatch
	for stream.Receive() { // OK: ends with the client's stream
		r := stream.Msg()
		b.ids = append(b.ids, r.GetNotificationId())
		b.delivered = append(b.delivered, r.GetDelivered())
	}
	if err := stream.Err(); err != nil {
		return nil, err
	}
	if len(b.ids) == 0 {
		return connect.NewResponse(&notifyv1.UploadReceiptsResponse{}), nil
	}
	b.id = h.batches.Add(1)
	h.receipts <- b
	for done := range h.flushed { // BUG: streamloop
		if done >= b.id {
			break
		}
	}
	log.Printf("notify: stored %d receipts from %s", len(b.ids), stream.Peer().Addr)
	return connect.NewResponse(&notifyv1.UploadReceiptsResponse{Stored: int64(len(b.ids))}), nil
}
