// Package audit writes the control plane's audit trail to the audit sink.
package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"example.test/mesh/internal/telemetry"
)

// Entry is one audited action.
type Entry struct {
	At       time.Time `json:"at"`
	Actor    string    `json:"actor"`
	Action   string    `json:"action"`
	Resource string    `json:"resource"`
	TraceID  string    `json:"trace_id,omitempty"`
	Outcome  string    `json:"outcome"`
}

// Log sends entries to an HTTP sink, one at a time or in batches.
type Log struct {
	sink   string
	client *http.Client

	mu      sync.Mutex
	pending []Entry
}

// New returns a log writing to sink.
func New(sink string) *Log {
	return &Log{sink: sink, client: &http.Client{}}
}

func (l *Log) send(ctx context.Context, entries []Entry) error {
	body, err := json.Marshal(entries)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, l.sink, bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := l.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("audit sink: %s", resp.Status)
	}
	return nil
}

// Write sends one entry now.
func (l *Log) Write(ctx context.Context, e Entry) error {
	if e.TraceID == "" {
		e.TraceID = telemetry.TraceID(ctx)
	}
	return l.send(ctx, []Entry{e})
}

// WriteBounded sends one entry with a budget of its own of at most five seconds.
func (l *Log) WriteBounded(ctx context.Context, e Entry) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return l.Write(ctx, e)
}

// Record queues an entry for the next flush.
func (l *Log) Record(e Entry) { l.RecordContext(context.Background(), e) }

// RecordContext queues an entry for the next flush, tagged with the trace in ctx.
func (l *Log) RecordContext(ctx context.Context, e Entry) {
	if e.TraceID == "" {
		e.TraceID = telemetry.TraceID(ctx)
	}
	if e.At.IsZero() {
		e.At = time.Now()
	}
	l.mu.Lock()
	l.pending = append(l.pending, e)
	l.mu.Unlock()
}

// Flush sends the queued entries.
func (l *Log) Flush() error { return l.FlushContext(context.Background()) }

// FlushContext sends the queued entries.
func (l *Log) FlushContext(ctx context.Context) error {
	l.mu.Lock()
	batch := l.pending
	l.pending = nil
	l.mu.Unlock()
	if len(batch) == 0 {
		return nil
	}
	if err := l.send(ctx, batch); err != nil {
		l.mu.Lock()
		l.pending = append(batch, l.pending...)
		l.mu.Unlock()
		return err
	}
	return nil
}

// Run flushes the queue every interval until ctx is done.
func (l *Log) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			fctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			_ = l.FlushContext(fctx)
			cancel()
			return
		case <-t.C:
			_ = l.FlushContext(ctx)
		}
	}
}
