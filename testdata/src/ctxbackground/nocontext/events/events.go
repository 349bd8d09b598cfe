// Package events writes audit events; its legacy helper takes no ctx and makes a root.
package events

import (
	"context"
	"net/http"
	"strings"
)

// Write posts an event with the ctx it is given.
func Write(ctx context.Context, msg string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://audit/events", strings.NewReader(msg))
	if err != nil {
		return err
	}
	_, err = http.DefaultClient.Do(req)
	return err
}

// Legacy is Write for callers with no ctx at hand.
func Legacy(msg string) error { // want Legacy:"drops ctx: context.TODO\\(\\) at .*/events.go:22"
	return Write(context.TODO(), msg)
}
