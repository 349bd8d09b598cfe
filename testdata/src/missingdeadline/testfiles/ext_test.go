package testfiles_test

import (
	"context"
	"testing"

	"missingdeadline/testfiles"
)

func TestExternal(t *testing.T) {
	_, _ = testfiles.Fetch(context.Background(), nil, "2")
}
