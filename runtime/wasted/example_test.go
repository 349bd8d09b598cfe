package wasted_test

import (
	"context"
	"fmt"
	"time"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"google.golang.org/grpc"

	"github.com/deadlinelint/deadlinelint/runtime/wasted"
)

// In a test, read the counters back through the OpenTelemetry SDK's ManualReader.
func ExampleNew() {
	reader := sdkmetric.NewManualReader()
	w, err := wasted.New(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)))
	if err != nil {
		panic(err)
	}
	// A handler that keeps working 50ms after its caller's deadline passed.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	handler := func(ctx context.Context, req any) (any, error) {
		time.Sleep(60 * time.Millisecond)
		return "done", nil
	}
	_, _ = w.Unary()(ctx, nil, &grpc.UnaryServerInfo{FullMethod: "/orders.v1.Orders/Get"}, handler)

	var rm metricdata.ResourceMetrics
	_ = reader.Collect(context.Background(), &rm)
	for _, m := range rm.ScopeMetrics[0].Metrics {
		if sum, ok := m.Data.(metricdata.Sum[int64]); ok && m.Name == wasted.WastedCalls {
			method, _ := sum.DataPoints[0].Attributes.Value("rpc.method")
			fmt.Printf("%s: %d wasted call of %s\n", m.Name, sum.DataPoints[0].Value, method.AsString())
		}
	}
	// Output: deadlinelint.server.wasted_calls: 1 wasted call of /orders.v1.Orders/Get
}
