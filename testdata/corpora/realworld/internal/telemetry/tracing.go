// Package telemetry wires OpenTelemetry tracing for the orders service and
// provides the small span helpers every package uses.
package telemetry

import (
	"context"
	"fmt"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

const instrumentationName = "example.test/realworld"

// Setup installs a tracer provider for service and returns its shutdown
// function. Exporters are attached by the deployment (OTEL_* environment).
func Setup(ctx context.Context, service string, sampleRatio float64) (func(context.Context) error, error) {
	res, err := resource.Merge(resource.Default(), resource.NewSchemaless(
		attribute.String("service.name", service),
	))
	if err != nil {
		return nil, fmt.Errorf("telemetry: resource: %w", err)
	}
	tp := sdktrace.NewTracerProvider(
		sdktrace.WithResource(res),
		sdktrace.WithSampler(sdktrace.ParentBased(sdktrace.TraceIDRatioBased(sampleRatio))),
	)
	otel.SetTracerProvider(tp)
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(
		propagation.TraceContext{}, propagation.Baggage{},
	))
	return tp.Shutdown, nil
}

// Tracer returns the service tracer.
func Tracer() trace.Tracer {
	return otel.Tracer(instrumentationName)
}

// Start starts a span named name as a child of the span in ctx.
func Start(ctx context.Context, name string, attrs ...attribute.KeyValue) (context.Context, trace.Span) {
	if ctx == nil {
		ctx = context.Background() // OK
	}
	return Tracer().Start(ctx, name, trace.WithAttributes(attrs...))
}

// WithSpan runs fn inside a child span of ctx and records the error it returns.
func WithSpan(ctx context.Context, name string, fn func(context.Context) error) error {
	ctx, span := Start(ctx, name)
	defer span.End()
	if err := fn(ctx); err != nil {
		return Fail(span, err)
	}
	return nil
}

// StartLinked starts a new trace for work that continues after the current
// request has been answered. The new root span is linked to the request span
// so the two show up together in the tracing UI.
func StartLinked(ctx context.Context, name string) (context.Context, trace.Span) {
	link := trace.LinkFromContext(ctx)
	return Tracer().Start(context.Background(), name,
		trace.WithNewRoot(),
		trace.WithLinks(link),
	)
}

// Fail marks span as failed and returns err unchanged.
func Fail(span trace.Span, err error) error {
	if err == nil {
		return nil
	}
	span.RecordError(err)
	span.SetStatus(codes.Error, err.Error())
	return err
}

// TraceID returns the trace id of the span in ctx, or "" when there is none.
func TraceID(ctx context.Context) string {
	sc := trace.SpanContextFromContext(ctx)
	if !sc.HasTraceID() {
		return ""
	}
	return sc.TraceID().String()
}
