package driver

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// actionsDone counts analyzer runs finished in this process; the progress
// line shows how many the current run has added.
var actionsDone atomic.Int64

// progressDelay is how long a run stays quiet before showing progress.
const progressDelay = 2 * time.Second

// A progress line shows on a terminal what a long run is doing; it
// rewrites itself in place and is erased when the run ends.
type progress struct {
	w     io.Writer
	start time.Time
	base  int64
	mu    sync.Mutex
	stage string
	shown bool
	stop  chan struct{}
	done  chan struct{}
}

// startProgress starts a progress line on w if w is a terminal;
// otherwise it returns nil, whose methods do nothing.
func startProgress(w io.Writer) *progress {
	if !isTerminal(w) {
		return nil
	}
	return newProgress(w, progressDelay)
}

// newProgress starts a progress line on w that appears after delay.
func newProgress(w io.Writer, delay time.Duration) *progress {
	p := &progress{w: w, start: time.Now(), base: actionsDone.Load(), stop: make(chan struct{}), done: make(chan struct{})}
	go p.loop(delay)
	return p
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// setStage names what the run is doing now ("loading packages").
func (p *progress) setStage(stage string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.stage = stage
	p.mu.Unlock()
}

func (p *progress) loop(delay time.Duration) {
	defer close(p.done)
	timer := time.NewTimer(delay)
	defer timer.Stop()
	select {
	case <-p.stop:
		return
	case <-timer.C:
	}
	ticker := time.NewTicker(250 * time.Millisecond)
	defer ticker.Stop()
	for {
		p.draw()
		select {
		case <-p.stop:
			return
		case <-ticker.C:
		}
	}
}

func (p *progress) draw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	line := fmt.Sprintf("deadlinelint: %s… %d analyses done, %.0fs", p.stage, actionsDone.Load()-p.base, time.Since(p.start).Seconds())
	fmt.Fprintf(p.w, "\r\033[K%s", line)
	p.shown = true
}

// end erases the progress line.
func (p *progress) end() {
	if p == nil {
		return
	}
	close(p.stop)
	<-p.done
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
