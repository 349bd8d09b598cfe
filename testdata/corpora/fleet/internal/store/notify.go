package store

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Notification is a message for a driver or a customer.
type Notification struct {
	To      string
	Kind    string
	TripID  string
	Message string
}

// Notifier delivers notifications to drivers and customers.
type Notifier interface {
	Notify(ctx context.Context, n Notification) error
}

// SMSNotifier sends notifications through the SMS gateway.
type SMSNotifier struct {
	client   *http.Client
	endpoint string
	from     string
}

// NewSMSNotifier returns a Notifier that posts to the SMS gateway at endpoint.
func NewSMSNotifier(client *http.Client, endpoint, from string) *SMSNotifier {
	return &SMSNotifier{client: client, endpoint: endpoint, from: from}
}

// Notify sends one SMS.
func (n *SMSNotifier) Notify(ctx context.Context, msg Notification) error {
	form := url.Values{"from": {n.from}, "to": {msg.To}, "body": {msg.Message}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, n.endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := n.client.Do(req)
	if err != nil {
		return fmt.Errorf("sms gateway: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("sms gateway: %s", resp.Status)
	}
	return nil
}

// WebhookNotifier posts signed JSON notifications to a customer-configured URL.
type WebhookNotifier struct {
	client  *http.Client
	url     string
	secret  []byte
	timeout time.Duration
}

// NewWebhookNotifier returns a Notifier that posts to url, signing bodies with secret.
func NewWebhookNotifier(client *http.Client, url string, secret []byte) *WebhookNotifier {
	return &WebhookNotifier{client: client, url: url, secret: secret, timeout: 10 * time.Second}
}

// Notify posts one notification.
func (w *WebhookNotifier) Notify(_ context.Context, msg Notification) error {
	body, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	mac := hmac.New(sha256.New, w.secret)
	mac.Write(body)

	ctx, cancel := context.WithTimeout(context.Background(), w.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Fleet-Signature", hex.EncodeToString(mac.Sum(nil)))
	resp, err := w.client.Do(req)
	if err != nil {
		return fmt.Errorf("webhook: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("webhook: %s", resp.Status)
	}
	return nil
}
