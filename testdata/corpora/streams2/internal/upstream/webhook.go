package upstream

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"time"
)

// Webhook posts notifications to a partner's endpoint.
type Webhook struct {
	url     string
	client  *http.Client
	retries int
	backoff time.Duration
}

// NewWebhook returns a Webhook posting to url with the given client.
func NewWebhook(url string, client *http.Client, retries int, backoff time.Duration) *Webhook {
	return &Webhook{url: url, client: client, retries: retries, backoff: backoff}
}

// Post delivers body, retrying on 5xx with a fixed backoff.
func (w *Webhook) Post(ctx context.Context, body []byte) error {
	var last error
	for attempt := 0; attempt <= w.retries; attempt++ {
		if attempt > 0 {
			t := time.NewTimer(w.backoff) // OK: a variable
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				return ctx.Err()
			}
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.url, bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := w.client.Do(req)
		if err != nil {
			last = err
			continue
		}
		resp.Body.Close()
		if resp.StatusCode < 500 {
			if resp.StatusCode >= 300 {
				return fmt.Errorf("webhook: %s", resp.Status)
			}
			return nil
		}
		last = fmt.Errorf("webhook: %s", resp.Status)
	}
	return last
}

// PostAsync delivers body in the background and gives up after the first attempt's answer or
// the slow-partner grace period, whichever comes first.
func (w *Webhook) PostAsync(body []byte) {
	ctx, cancel := context.WithCancel(context.Background())
	stop := time.AfterFunc(250, cancel) // BUG: deadlinemath
	go func() {
		defer stop.Stop()
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.url, bytes.NewReader(body))
		if err != nil {
			return
		}
		if resp, err := w.client.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
}
