// Package generated mixes a generated file, whose detached calls are never reported, with
// user code that calls it.
package generated

import "context"

// Record uses the generated helpers; the WithoutCancel calls live in generated code and the
// user's own code has none.
func Record(ctx context.Context, s sink) error {
	if err := WriteDetached(ctx, s, "a"); err != nil {
		return err
	}
	return s.Write(Detached(ctx), "b")
}
