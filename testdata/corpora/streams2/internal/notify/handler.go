// Package notify serves notify.v1.NotifyService over connect-go: browsers and the mobile app
// watch a user's notifications, sync read state, and push gateways upload delivery receipts.
package notify

import (
	"context"
	"log"
	"sync/atomic"

	"google.golang.org/protobuf/types/known/timestamppb"

	notifyv1 "example.test/streams2/gen/notify/v1"
	"example.test/streams2/gen/notify/v1/notifyv1connect"
	"example.test/streams2/internal/pubsub"
	"example.test/streams2/internal/store"
)

// prefsChanged carries the ids of users whose preferences changed, so that open sessions reload
// their mute lists.
var prefsChanged = make(chan string, 64)

func preferencesChanged(user string) {
	select {
	case prefsChanged <- user:
	default:
	}
}

type receiptBatch struct {
	id        int64
	ids       []string
	delivered []bool
}

// Handler implements notifyv1connect.NotifyServiceHandler.
type Handler struct {
	notifyv1connect.UnimplementedNotifyServiceHandler

	hub   *pubsub.Broker
	inbox *store.Inbox
	cache *store.Cache

	batches  atomic.Int64
	receipts chan receiptBatch
	flushed  chan int64
}

var _ notifyv1connect.NotifyServiceHandler = (*Handler)(nil)

// NewHandler returns a notify handler. RunReceiptWriter must run for receipts to be stored.
func NewHandler(hub *pubsub.Broker, inbox *store.Inbox, cache *store.Cache) *Handler {
	return &Handler{
		hub:      hub,
		inbox:    inbox,
		cache:    cache,
		receipts: make(chan receiptBatch, 64),
		flushed:  make(chan int64, 64),
	}
}

// RunReceiptWriter stores uploaded receipts until ctx is done.
func (h *Handler) RunReceiptWriter(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case b := <-h.receipts:
			if err := h.inbox.SaveReceipts(ctx, b.ids, b.delivered); err != nil {
				log.Printf("notify: receipts batch %d: %v", b.id, err)
			}
			select {
			case h.flushed <- b.id:
			default:
			}
		}
	}
}

func userTopic(user string) string  { return "user." + user }
func channelTopic(ch string) string { return "channel." + ch }
func readTopic(user string) string  { return "read." + user }
func noteToProto(n store.Note) *notifyv1.Notification {
	return &notifyv1.Notification{
		Id:        n.ID,
		UserId:    n.UserID,
		Channel:   n.Channel,
		Title:     n.Title,
		Body:      n.Body,
		CreatedAt: timestamppb.New(n.Created),
	}
}

func decode(m pubsub.Message) *notifyv1.Notification {
	n := &notifyv1.Notification{}
	if err := protoUnmarshal(m.Payload, n); err != nil {
		return &notifyv1.Notification{Id: m.ID, Title: string(m.Payload)}
	}
	return n
}
