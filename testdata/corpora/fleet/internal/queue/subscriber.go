package queue

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

// HTTPSubscriber pulls from the bus's HTTP long-poll API.
type HTTPSubscriber struct {
	base   string
	group  string
	client *http.Client
}

// NewHTTPSubscriber returns a subscriber for consumer group group at base.
func NewHTTPSubscriber(base, group string) *HTTPSubscriber {
	return &HTTPSubscriber{base: base, group: group, client: &http.Client{}}
}

// Receive long-polls for the next message.
func (s *HTTPSubscriber) Receive(ctx context.Context) (*Message, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.base+"/v1/groups/"+url.PathEscape(s.group)+"/next?wait=20s", nil)
	if err != nil {
		return nil, err
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("bus: %s", resp.Status)
	}
	var m Message
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		return nil, err
	}
	return &m, nil
}

// Ack confirms a message.
func (s *HTTPSubscriber) Ack(ctx context.Context, id string) error {
	return s.post(ctx, "/ack", map[string]any{"id": id})
}

// Nack returns a message for redelivery after delay.
func (s *HTTPSubscriber) Nack(ctx context.Context, id string, delay time.Duration) error {
	return s.post(ctx, "/nack", map[string]any{"id": id, "delay_ms": delay.Milliseconds()})
}

func (s *HTTPSubscriber) post(ctx context.Context, path string, body any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.base+"/v1/groups/"+url.PathEscape(s.group)+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := s.client.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("bus %s: %s", path, resp.Status)
	}
	return nil
}
