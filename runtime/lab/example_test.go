package lab_test

import (
	"context"
	"fmt"
	"time"

	"google.golang.org/grpc"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/deadlinelint/deadlinelint/runtime/internal/testchain"
	"github.com/deadlinelint/deadlinelint/runtime/lab"
)

// In a test, use Start and report.Check(t). Here, three hops of the health service: A works
// 20ms, B 60ms and then calls C with context.Background(), C works 120ms.
func Example() {
	a := &testchain.Hop{Work: 20 * time.Millisecond}
	b := &testchain.Hop{Work: 60 * time.Millisecond, DropDeadline: true}
	c := &testchain.Hop{Work: 120 * time.Millisecond}
	chain, err := lab.New([]lab.Hop{
		{Name: "A", Register: a.Register},
		{Name: "B", Register: b.Register},
		{Name: "C", Register: c.Register},
	})
	if err != nil {
		panic(err)
	}
	defer chain.Close()

	report := chain.Call(150*time.Millisecond, func(ctx context.Context, cc *grpc.ClientConn) error {
		_, err := healthpb.NewHealthClient(cc).Check(ctx, &healthpb.HealthCheckRequest{})
		return err
	})
	fmt.Println("client got", report.Code)
	for _, v := range report.Visits {
		fmt.Printf("%s: deadline %v, kept working after it: %v\n", v.Hop, v.HasDeadline, v.WorkedAfterDone > 0)
	}
	// Output:
	// client got DeadlineExceeded
	// A: deadline true, kept working after it: false
	// B: deadline true, kept working after it: true
	// C: deadline false, kept working after it: true
}
