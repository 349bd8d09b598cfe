package api

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"google.golang.org/grpc/codes"

	"example.test/streams2/internal/store"
)

// codeFor picks the status code for an error of the store.
func codeFor(err error) codes.Code {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return codes.DeadlineExceeded
	case errors.Is(err, context.Canceled):
		return codes.Canceled
	case errors.Is(err, store.ErrNotFound):
		return codes.NotFound
	}
	return codes.Internal
}

func validateTopic(name string, partitions int32) error {
	switch {
	case name == "":
		return errors.New("name is required")
	case strings.HasPrefix(name, "$"):
		return fmt.Errorf("topic names starting with $ are reserved: %q", name)
	case partitions < 1 || partitions > 64:
		return fmt.Errorf("partitions must be between 1 and 64, got %d", partitions)
	}
	return nil
}
