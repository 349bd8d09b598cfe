package ops

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestBeginFinish(t *testing.T) {
	done := make(chan Operation, 1)
	tr := NewTracker(time.Minute, func(op Operation) { done <- op })
	op := tr.Begin(context.Background(), "drain", "node-1", func(ctx context.Context) ([]byte, error) { // OK: test
		return []byte("ok"), nil
	})
	if op.State != Running {
		t.Fatalf("state = %v", op.State)
	}
	got := <-done
	if got.State != Succeeded || string(got.Result) != "ok" {
		t.Fatalf("got %+v", got)
	}
}

func TestCancel(t *testing.T) {
	done := make(chan Operation, 1)
	tr := NewTracker(time.Minute, func(op Operation) { done <- op })
	op := tr.Begin(context.Background(), "restart", "web", func(ctx context.Context) ([]byte, error) { // OK: test
		<-ctx.Done()
		return nil, ctx.Err()
	})
	if _, err := tr.Cancel(op.ID); err != nil {
		t.Fatal(err)
	}
	if got := <-done; got.State != Cancelled {
		t.Fatalf("state = %v", got.State)
	}
	if _, err := tr.Get("nope"); !errors.Is(err, ErrUnknown) {
		t.Fatalf("err = %v", err)
	}
}
