package driver

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for the progress goroutine.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestProgressLine(t *testing.T) {
	var out syncBuffer
	p := newProgress(&out, 0)
	p.setStage("loading packages")
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(out.String(), "loading packages") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	p.end()
	got := out.String()
	if !strings.HasPrefix(got, "\r\033[Kdeadlinelint: ") || !strings.Contains(got, "loading packages…") {
		t.Errorf("progress output %q lacks the stage line", got)
	}
	if !strings.HasSuffix(got, "\r\033[K") {
		t.Errorf("progress output %q does not end by erasing the line", got)
	}
}

func TestQuickRunShowsNoProgress(t *testing.T) {
	var out syncBuffer
	p := newProgress(&out, time.Hour)
	p.setStage("loading packages")
	p.end()
	if got := out.String(); got != "" {
		t.Errorf("a run shorter than the delay printed %q", got)
	}
	if startProgress(&out) != nil {
		t.Error("progress started on a writer that is not a terminal")
	}
}
