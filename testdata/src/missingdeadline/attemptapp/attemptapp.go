// Package attemptapp calls package attemptlib's runners, known through their facts: a wait
// passed is the caller's setting, a constant zero to Run is none, and a zero that WithDefault
// replaces, or a compared duration that is not the bound (Paced), is no missing deadline.
package attemptapp

import (
	"context"
	"time"

	"example.com/gen/catalogpb"

	"missingdeadline/attemptlib"
)

type App struct {
	runner *attemptlib.Runner
	client catalogpb.CatalogClient
}

func (a *App) get(ctx context.Context) error {
	_, err := a.client.GetItem(ctx, &catalogpb.GetItemRequest{Id: "app"})
	return err
}

// bounded passes a wait.
func (a *App) bounded() error {
	return a.runner.Run(context.Background(), time.Second, a.get)
}

// unbounded passes none.
func (a *App) unbounded() error {
	return a.runner.Run(context.Background(), 0, a.get) // want `App\.get calls RPC CatalogClient\.GetItem with no deadline \(ctx from context\.Background\(\)\)`
}

// byValue calls Run through a method value: its arguments leave out the receiver, which the
// fact's indexes count; not followed.
func (a *App) byValue() error {
	run := a.runner.Run
	return run(context.Background(), 0, a.get)
}

// defaulted gets WithDefault's minute.
func (a *App) defaulted() error {
	return attemptlib.WithDefault(context.Background(), 0, a.get)
}

// paced gets a minute, whatever its backoff.
func (a *App) paced() error {
	return attemptlib.Paced(context.Background(), 0, time.Minute, false, a.get)
}

var _ = []any{(*App).bounded, (*App).unbounded, (*App).byValue, (*App).defaulted, (*App).paced}
