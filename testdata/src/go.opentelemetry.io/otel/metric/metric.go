// Package metric is a stub of go.opentelemetry.io/otel/metric: the instruments whose Add and
// Record take a ctx only to read its values (the span, baggage) for exemplars.
package metric

import "context"

// AddOption configures an Add.
type AddOption interface{ applyAdd() }

// RecordOption configures a Record.
type RecordOption interface{ applyRecord() }

// Int64Counter counts int64 increments.
type Int64Counter interface {
	Add(ctx context.Context, incr int64, options ...AddOption)
}

// Float64Counter counts float64 increments.
type Float64Counter interface {
	Add(ctx context.Context, incr float64, options ...AddOption)
}

// Int64UpDownCounter counts int64 changes.
type Int64UpDownCounter interface {
	Add(ctx context.Context, incr int64, options ...AddOption)
}

// Float64UpDownCounter counts float64 changes.
type Float64UpDownCounter interface {
	Add(ctx context.Context, incr float64, options ...AddOption)
}

// Int64Histogram records int64 values.
type Int64Histogram interface {
	Record(ctx context.Context, incr int64, options ...RecordOption)
}

// Float64Histogram records float64 values.
type Float64Histogram interface {
	Record(ctx context.Context, incr float64, options ...RecordOption)
}

// Int64Gauge records int64 values.
type Int64Gauge interface {
	Record(ctx context.Context, value int64, options ...RecordOption)
}

// Float64Gauge records float64 values.
type Float64Gauge interface {
	Record(ctx context.Context, value float64, options ...RecordOption)
}
