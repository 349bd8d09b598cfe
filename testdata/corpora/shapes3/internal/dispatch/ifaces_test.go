package dispatch

import (
	"context"
	"testing"
)

// countingNotifier counts the notifications it passes on.
type countingNotifier struct {
	next notifier
	n    int
}

func (c *countingNotifier) Notify(ctx context.Context, id, event string) error {
	c.n++
	return c.next.Notify(ctx, id, event)
}

func TestCountingNotifier(t *testing.T) {
	c := &countingNotifier{next: logNotifier{}}
	for _, ev := range []string{"moved to fast", "moved to slow"} {
		if err := c.Notify(t.Context(), "job-1", ev); err != nil {
			t.Fatalf("Notify(%q): %v", ev, err)
		}
	}
	if c.n != 2 {
		t.Fatalf("counted %d notifications, want 2", c.n)
	}
}
