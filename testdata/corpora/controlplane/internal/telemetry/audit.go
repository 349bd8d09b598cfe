package telemetry

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// Entry is one audit row.
type Entry struct {
	Actor  string    `json:"actor"`
	Action string    `json:"action"`
	Object string    `json:"object"`
	At     time.Time `json:"at"`
}

// Sink ships audit rows somewhere durable.
type Sink interface {
	Write(ctx context.Context, e Entry) error
}

// HTTPSink posts rows to the audit collector.
type HTTPSink struct {
	URL    string
	Client *http.Client
}

func (s *HTTPSink) Write(ctx context.Context, e Entry) error {
	body, err := json.Marshal(e)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := s.Client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("audit collector: %s", resp.Status)
	}
	return nil
}

// Auditor writes audit rows with a bounded budget of its own per row.
type Auditor struct {
	sink    Sink
	timeout time.Duration
}

func NewAuditor(sink Sink) *Auditor { return &Auditor{sink: sink, timeout: 3 * time.Second} }

// Record writes e, giving the sink at most the auditor's timeout.
func (a *Auditor) Record(ctx context.Context, e Entry) error {
	ctx, cancel := context.WithTimeout(ctx, a.timeout)
	defer cancel()
	if e.At.IsZero() {
		e.At = time.Now()
	}
	return a.sink.Write(ctx, e)
}
