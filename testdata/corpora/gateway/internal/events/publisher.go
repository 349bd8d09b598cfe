// Package events publishes gateway domain events to the event bus's HTTP ingest.
package events

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// Event is one domain event.
type Event struct {
	Type      string            `json:"type"`
	Subject   string            `json:"subject"`
	At        time.Time         `json:"at"`
	Attrs     map[string]string `json:"attrs,omitempty"`
	RequestID string            `json:"request_id,omitempty"`
}

// Publisher posts events to topic URLs under base.
type Publisher struct {
	base   string
	client *http.Client
}

// NewPublisher returns a publisher.
func NewPublisher(base string, client *http.Client) *Publisher {
	return &Publisher{base: base, client: client}
}

// Publish posts ev to topic.
func (p *Publisher) Publish(ctx context.Context, topic string, ev Event) error {
	body, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.base+"/topics/"+topic, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := p.client.Do(req)
	if err != nil {
		return fmt.Errorf("events: publish %s: %w", ev.Type, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("events: publish %s: %s", ev.Type, resp.Status)
	}
	return nil
}
