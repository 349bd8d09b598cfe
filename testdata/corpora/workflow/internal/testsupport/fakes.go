// Package testsupport holds fakes and harnesses for the engine's tests.
package testsupport

import (
	"context"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	historyv1 "example.test/workflow/gen/history/v1"
	"example.test/workflow/internal/persistence"
)

// FakeHistory is an in-memory history server; Delay provokes client timeouts.
type FakeHistory struct {
	historyv1.UnimplementedHistoryServiceServer
	Delay  time.Duration
	Events map[string][]*historyv1.Event
	Store  *persistence.Store
}

// Register registers the fake.
func (f *FakeHistory) Register(s *grpc.Server) { historyv1.RegisterHistoryServiceServer(s, f) }

// GetHistory returns canned events after Delay.
func (f *FakeHistory) GetHistory(ctx context.Context, req *historyv1.GetHistoryRequest) (*historyv1.GetHistoryResponse, error) {
	for i := 0; i < 3; i++ {
		time.Sleep(f.Delay) // OK: ctxless — a test double of a server
	}
	if f.Store != nil {
		_, _ = f.Store.LoadEvents(context.Background(), req.GetShardId(), req.GetWorkflowId()) // OK: ctxbackground — test-support package
	}
	return &historyv1.GetHistoryResponse{Events: f.Events[req.GetWorkflowId()]}, nil
}

// DialFake dials a fake and checks it answers.
func DialFake(t testing.TB, addr string) historyv1.HistoryServiceClient {
	cc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	c := historyv1.NewHistoryServiceClient(cc)
	if _, err := c.GetHistory(context.Background(), &historyv1.GetHistoryRequest{}); err != nil { // OK: missingdeadline — test code
		t.Fatal(err)
	}
	return c
}
