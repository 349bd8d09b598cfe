package servenv

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/metric/noop"
)

var meter metric.Meter = noop.NewMeterProvider().Meter("example.test/sqlproxy")

var (
	queryCount, _   = meter.Int64Counter("sqlproxy.queries")
	queryLatency, _ = meter.Float64Histogram("sqlproxy.query.latency", metric.WithUnit("s"))
	rpcErrors, _    = meter.Int64Counter("sqlproxy.rpc.errors")
)

// RecordQuery counts one query routed to keyspace and records its latency.
func RecordQuery(ctx context.Context, keyspace, plan string, d time.Duration) {
	attrs := metric.WithAttributes(
		attribute.String("keyspace", keyspace),
		attribute.String("plan", plan),
	)
	queryCount.Add(ctx, 1, attrs)
	queryLatency.Record(ctx, d.Seconds(), attrs)
}

// RecordRPCError counts one failed RPC of method.
func RecordRPCError(ctx context.Context, method string) {
	rpcErrors.Add(ctx, 1, metric.WithAttributes(attribute.String("method", method)))
}
