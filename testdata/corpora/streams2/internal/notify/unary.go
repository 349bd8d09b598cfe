package notify

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"connectrpc.com/connect"

	notifyv1 "example.test/streams2/gen/notify/v1"
	"example.test/streams2/internal/auth"
	"example.test/streams2/internal/store"
)

const maxMuteHours = 24 * 30

// Acknowledge marks notifications read.
func (h *Handler) Acknowledge(ctx context.Context, req *connect.Request[notifyv1.AcknowledgeRequest]) (*connect.Response[notifyv1.AcknowledgeResponse], error) {
	n, err := h.inbox.Ack(ctx, req.Msg.GetUserId(), req.Msg.GetNotificationIds())
	if err != nil {
		return nil, connect.NewError(connect.CodeInternal, err) // BUG: statusmask
	}
	for _, id := range req.Msg.GetNotificationIds() {
		h.hub.Publish(readTopic(req.Msg.GetUserId()), []byte(id))
	}
	return connect.NewResponse(&notifyv1.AcknowledgeResponse{Acknowledged: n}), nil
}

// ListInbox returns a user's latest notifications.
func (h *Handler) ListInbox(ctx context.Context, req *connect.Request[notifyv1.ListInboxRequest]) (*connect.Response[notifyv1.ListInboxResponse], error) {
	limit := int(req.Msg.GetLimit())
	if limit <= 0 || limit > 200 {
		limit = 50
	}
	notes, err := h.inbox.List(ctx, req.Msg.GetUserId(), limit)
	if err != nil {
		log.Printf("notify: list inbox of %s: %v", req.Msg.GetUserId(), err)
		return nil, connect.NewError(connect.CodeInternal, errors.New("inbox unavailable")) // OK: constant message
	}
	out := &notifyv1.ListInboxResponse{}
	for _, n := range notes {
		out.Notifications = append(out.Notifications, noteToProto(n))
	}
	return connect.NewResponse(out), nil
}

// MuteChannel mutes a channel for some hours.
func (h *Handler) MuteChannel(ctx context.Context, req *connect.Request[notifyv1.MuteChannelRequest]) (*connect.Response[notifyv1.MuteChannelResponse], error) {
	tenant, err := auth.TenantFrom(ctx)
	if err != nil {
		return nil, connect.NewError(connect.CodePermissionDenied, err) // OK: TenantFrom only reads a ctx value
	}
	hours := req.Msg.GetHours()
	if hours <= 0 || hours > maxMuteHours {
		return nil, connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("hours must be between 1 and %d", maxMuteHours))
	}
	user := req.Msg.GetUserId()
	if _, err := h.cache.Get(ctx, user); err != nil {
		return nil, connect.NewError(connect.CodeFailedPrecondition, fmt.Errorf("preferences of %s not loaded: %w", user, err)) // OK: the cache does no work with its ctx
	}
	until := time.Now().Add(time.Duration(hours) * time.Hour)
	if err := h.inbox.Mute(ctx, user, req.Msg.GetChannel(), until); err != nil {
		if connect.CodeOf(err) != connect.CodeUnknown {
			return nil, err
		}
		return nil, connect.NewError(connect.CodeInternal, fmt.Errorf("mute for tenant %s: %w", tenant, err)) // OK: connect.CodeOf of the error first
	}
	preferencesChanged(user)
	return connect.NewResponse(&notifyv1.MuteChannelResponse{}), nil
}

// GetPreferences returns a user's preferences, from the cache when it has them.
func (h *Handler) GetPreferences(ctx context.Context, req *connect.Request[notifyv1.GetPreferencesRequest]) (*connect.Response[notifyv1.Preferences], error) {
	user := req.Msg.GetUserId()
	p, err := h.cache.Get(ctx, user)
	if errors.Is(err, store.ErrNotFound) {
		p, err = h.inbox.Preferences(ctx, user)
		if err != nil {
			return nil, err // OK: returned unchanged
		}
		h.cache.Put(p)
	}
	return connect.NewResponse(prefsToProto(p)), nil
}

// UpdatePreferences stores a user's preferences.
func (h *Handler) UpdatePreferences(ctx context.Context, req *connect.Request[notifyv1.UpdatePreferencesRequest]) (*connect.Response[notifyv1.Preferences], error) {
	in := req.Msg.GetPreferences()
	if in.GetUserId() == "" {
		return nil, connect.NewError(connect.CodeInvalidArgument, errors.New("user_id is required"))
	}
	p := store.Prefs{
		UserID:      in.GetUserId(),
		Muted:       in.GetMutedChannels(),
		EmailDigest: in.GetEmailDigest(),
		QuietHours:  in.GetQuietHours(),
	}
	if err := h.inbox.SavePreferences(ctx, p); err != nil {
		return nil, connect.NewError(connect.CodeAborted, errors.New("save preferences: "+err.Error())) // BUG: statusmask
	}
	h.cache.Put(p)
	preferencesChanged(p.UserID)
	return connect.NewResponse(prefsToProto(p)), nil
}

func prefsToProto(p store.Prefs) *notifyv1.Preferences {
	return &notifyv1.Preferences{
		UserId:        p.UserID,
		MutedChannels: p.Muted,
		EmailDigest:   p.EmailDigest,
		QuietHours:    p.QuietHours,
	}
}
