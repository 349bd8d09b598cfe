// Package journal appends the agent's local record of what it was asked to do,
// so that an operator on the node can reconstruct events without the control plane.
package journal

import (
	"context"
	"encoding/json"
	"os"
	"sync"
	"time"
)

// Record is one journal line.
type Record struct {
	At     time.Time `json:"at"`
	Action string    `json:"action"`
	Target string    `json:"target"`
	Detail string    `json:"detail,omitempty"`
	Error  string    `json:"error,omitempty"`
}

// Writer appends JSON lines to a file.
type Writer struct {
	mu sync.Mutex
	f  *os.File
}

// Open opens (or creates) the journal at path.
func Open(path string) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o640)
	if err != nil {
		return nil, err
	}
	return &Writer{f: f}, nil
}

// Append writes r unless ctx is done before the journal lock is acquired.
func (w *Writer) Append(ctx context.Context, r Record) error {
	if r.At.IsZero() {
		r.At = time.Now()
	}
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	locked := make(chan struct{})
	go func() { w.mu.Lock(); close(locked) }()
	select {
	case <-locked:
	case <-ctx.Done():
		go func() { <-locked; w.mu.Unlock() }()
		return ctx.Err()
	}
	defer w.mu.Unlock()
	_, err = w.f.Write(append(b, '\n'))
	return err
}

// Close closes the file.
func (w *Writer) Close() error { return w.f.Close() }
