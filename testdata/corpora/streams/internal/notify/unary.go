package notify

import (
	"context"
	"errors"
	"fmt"
	"time"

	"connectrpc.com/connect"

	notifyv1 "example.test/streams/gen/notify/v1"
)

// Acknowledge marks notifications read from the web inbox.
func (h *Handler) Acknowledge(ctx context.Context, req *connect.Request[notifyv1.AcknowledgeRequest]) (*connect.Response[notifyv1.AcknowledgeResponse], error) {
	ids := req.Msg.GetNotificationIds()
	if len(ids) == 0 {
		return nil, connect.NewError(connect.CodeInvalidArgument, errors.New("notification_ids is empty"))
	}
	n, err := h.inbox.MarkRead(ctx, req.Msg.GetUserId(), ids)
	if err != nil {
		return nil, connect.NewError(connect.CodeInternal, err) // BUG: statusmask
	}
	return connect.NewResponse(&notifyv1.AcknowledgeResponse{Acknowledged: n}), nil
}

// ListInbox returns a user's newest notifications.
func (h *Handler) ListInbox(ctx context.Context, req *connect.Request[notifyv1.ListInboxRequest]) (*connect.Response[notifyv1.ListInboxResponse], error) {
	limit := int(req.Msg.GetLimit())
	if limit <= 0 || limit > 200 {
		limit = 50
	}
	// The inbox page has a two second budget; anything slower shows the cached page instead.
	lctx, cancel := context.WithTimeout(ctx, 2e9) // OK: 2e9 is two seconds written in nanoseconds on purpose
	defer cancel()
	list, err := h.inbox.List(lctx, req.Msg.GetUserId(), limit)
	if err != nil {
		return nil, connect.NewError(connect.CodeUnavailable, fmt.Errorf("load inbox: %w", err)) // BUG: statusmask
	}
	return connect.NewResponse(&notifyv1.ListInboxResponse{Notifications: list}), nil
}

// MuteChannel hides a channel's notifications for some hours.
func (h *Handler) MuteChannel(ctx context.Context, req *connect.Request[notifyv1.MuteChannelRequest]) (*connect.Response[notifyv1.MuteChannelResponse], error) {
	ch := req.Msg.GetChannel()
	hours := req.Msg.GetHours()
	if ch == "" || hours <= 0 {
		return nil, connect.NewError(connect.CodeInvalidArgument, errors.New("channel and a positive number of hours are required"))
	}
	until := time.Now().Add(time.Duration(hours) * time.Hour)
	if err := h.inbox.Mute(ctx, req.Msg.GetUserId(), ch, until); err != nil {
		return nil, connect.NewError(connect.CodeInternal, errors.New("mute "+ch+": "+err.Error())) // BUG: statusmask
	}
	return connect.NewResponse(&notifyv1.MuteChannelResponse{}), nil
}

// GetPreferences returns a user's delivery preferences, or the defaults.
func (h *Handler) GetPreferences(ctx context.Context, req *connect.Request[notifyv1.GetPreferencesRequest]) (*connect.Response[notifyv1.Preferences], error) {
	p, err := h.prefs.Load(ctx, req.Msg.GetUserId())
	if err != nil {
		if connect.CodeOf(err) == connect.CodeNotFound {
			return connect.NewResponse(&notifyv1.Preferences{UserId: req.Msg.GetUserId(), EmailDigest: true}), nil
		}
		return nil, connect.NewError(connect.CodeInternal, fmt.Errorf("load preferences: %w", err)) // OK: connect.CodeOf of the error is looked at first
	}
	return connect.NewResponse(p), nil
}

// UpdatePreferences replaces a user's delivery preferences and mirrors mutes into the inbox.
func (h *Handler) UpdatePreferences(ctx context.Context, req *connect.Request[notifyv1.UpdatePreferencesRequest]) (*connect.Response[notifyv1.Preferences], error) {
	p := req.Msg.GetPreferences()
	if p.GetUserId() == "" {
		return nil, connect.NewError(connect.CodeInvalidArgument, errors.New("preferences.user_id is required"))
	}
	save := func(p *notifyv1.Preferences) error {
		if err := h.prefs.Save(ctx, p); err != nil {
			return connect.NewError(connect.CodeAborted, fmt.Errorf("save preferences of %s: %w", p.GetUserId(), err)) // BUG: statusmask
		}
		return nil
	}
	if err := save(p); err != nil {
		return nil, err
	}
	forever := time.Now().AddDate(100, 0, 0)
	for _, ch := range p.GetMutedChannels() {
		if err := h.inbox.Mute(ctx, p.GetUserId(), ch, forever); err != nil {
			return nil, err
		}
	}
	return connect.NewResponse(p), nil
}
