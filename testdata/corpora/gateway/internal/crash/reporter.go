// Package crash reports recovered panics to the error tracker.
package crash

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// Event is one recovered panic.
type Event struct {
	Method string    `json:"method"`
	Value  string    `json:"value"`
	Stack  string    `json:"stack"`
	At     time.Time `json:"at"`
	Node   string    `json:"node"`
}

// NewEvent builds an event for a panic value recovered in method.
func NewEvent(method string, v any, stack []byte) Event {
	return Event{Method: method, Value: fmt.Sprint(v), Stack: string(stack), At: time.Now().UTC()}
}

// Reporter posts events to the tracker's ingest endpoint.
type Reporter struct {
	url    string
	node   string
	client *http.Client
}

// NewReporter returns a reporter posting to url.
func NewReporter(url, node string, client *http.Client) *Reporter {
	return &Reporter{url: url, node: node, client: client}
}

// Report sends ev.
func (r *Reporter) Report(ctx context.Context, ev Event) error {
	ev.Node = r.node
	body, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := r.client.Do(req)
	if err != nil {
		return fmt.Errorf("crash: report: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("crash: report: tracker answered %s", resp.Status)
	}
	return nil
}
