// Package render turns a catalogue into text. Its functions take a ctx for tracing only: a
// root context given to them loses no deadline, because nothing they do can be cancelled.
package render

import (
	"context"
	"database/sql"
	"log/slog"
	"strings"

	"go.opentelemetry.io/otel/trace"
)

var tracer trace.Tracer

// Text starts a span and drops the ctx the tracer returns: no work with it.
func Text(ctx context.Context, names []string) string {
	_, span := tracer.Start(ctx, "render.Text")
	defer span.End()
	return strings.Join(names, "\n")
}

// Logged only logs with its ctx, then renders through Text.
func Logged(ctx context.Context, names []string) string {
	slog.InfoContext(ctx, "rendering", "n", len(names))
	return Text(ctx, names)
}

// Hash renders with a root context of its own: nothing is lost, since Text does no work.
func Hash(names []string) string {
	return Text(context.Background(), names)
}

// Traced starts a span and works with the ctx the tracer returns: that is work.
func Traced(ctx context.Context, db *sql.DB, names []string) error {
	ctx, span := tracer.Start(ctx, "render.Traced")
	defer span.End()
	_, err := db.ExecContext(ctx, "INSERT INTO renders VALUES ($1)", Text(ctx, names))
	return err
}

// Store renders and stores with a root context: the store is work.
func Store(db *sql.DB, names []string) error { // want Store:"drops ctx"
	return Traced(context.Background(), db, names)
}

// Checked looks at its ctx's cancellation: that is honouring it, not ignoring it.
func Checked(ctx context.Context, names []string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	return Text(ctx, names), nil
}

// Late hands its ctx to a goroutine: work that may be cancelled.
func Late(ctx context.Context, done chan<- string, names []string) {
	go func() { done <- Logged(ctx, names) }()
}

// Verify hands a root to Checked, which honours cancellation: that is work.
func Verify(names []string) (string, error) { // want Verify:"drops ctx: context.Background\\(\\) at .*/render.go:62"
	return Checked(context.Background(), names)
}

// Background hands a root to Late, which uses it only in a goroutine it starts: that work has
// a lifetime of its own, which the root is — no drop (as when a handler does the same).
func Background(done chan<- string, names []string) {
	Late(context.Background(), done, names)
}
