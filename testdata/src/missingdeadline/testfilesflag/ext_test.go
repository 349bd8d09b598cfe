package testfilesflag_test

import (
	"context"
	"testing"

	"missingdeadline/testfilesflag"
)

func TestExternal(t *testing.T) {
	_, _ = testfilesflag.Fetch(context.Background(), nil, "2") // want `testfilesflag.Fetch is called`
}
