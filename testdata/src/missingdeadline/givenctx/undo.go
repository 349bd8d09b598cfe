package givenctx

import (
	"context"
	"errors"

	"example.com/gen/catalogpb"
)

var errNotSaved = errors.New("not saved")

// Revert cleans up after a failure and then returns an error of its own, not the failure's: the
// function has still failed, its root is cleanup that only lacks a deadline.
func (w *Writer) Revert(_ context.Context, id string) error {
	if err := validate(id); err != nil {
		_, _ = w.c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: "undo"}) // want `add one with context\.WithTimeout$`
		return errNotSaved
	}
	return nil
}

// GiveUp returns an error it makes there, which cannot be nil either.
func (w *Writer) GiveUp(_ context.Context, id string) error {
	if err := validate(id); err != nil {
		_, _ = w.c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: "abandon"}) // want `add one with context\.WithTimeout$`
		return errors.New("given up")
	}
	return nil
}

// Check's root is not cleanup: it runs when the id is valid, and Check goes on with what it
// returns. It is told to use the ctx Check is given.
func (w *Writer) Check(_ context.Context, id string) error {
	if err := validate(id); err != nil {
		return errNotSaved
	}
	_, err := w.c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id}) // want `use the ctx Writer\.Check is given$`
	return err
}
