package workqueue

import (
	"testing"
	"time"
)

func TestDedup(t *testing.T) {
	q := New[string](time.Millisecond, 10*time.Millisecond)
	q.Add("a")
	q.Add("a")
	q.Add("b")
	if got := q.Len(); got != 2 {
		t.Fatalf("Len = %d, want 2", got)
	}
	k, _ := q.Get()
	q.Add(k) // re-added while processing: deferred until Done
	if got := q.Len(); got != 1 {
		t.Fatalf("Len while processing = %d, want 1", got)
	}
	q.Done(k)
	if got := q.Len(); got != 2 {
		t.Fatalf("Len after Done = %d, want 2", got)
	}
	q.ShutDown()
}

func TestRateLimited(t *testing.T) {
	q := New[string](time.Millisecond, 5*time.Millisecond)
	q.AddRateLimited("x")
	q.AddRateLimited("x")
	if q.Retries("x") != 2 {
		t.Fatalf("Retries = %d", q.Retries("x"))
	}
	q.Forget("x")
	if q.Retries("x") != 0 {
		t.Fatal("Forget did not reset")
	}
	deadline := time.Now().Add(time.Second)
	for q.Len() == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if q.Len() != 1 {
		t.Fatalf("Len = %d, want 1", q.Len())
	}
}
