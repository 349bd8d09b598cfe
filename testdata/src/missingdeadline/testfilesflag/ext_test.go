package testfilesflag_test

import (
	"context"
	"testing"

	"missingdeadline/testfilesflag"
)

func TestExternal(t *testing.T) {
	_, _ = testfilesflag.Fetch(context.Background(), nil, "2") // want `testfilesflag\.Fetch calls RPC CatalogClient\.GetItem with no deadline \(ctx from context\.Background\(\)\); add one with context\.WithTimeout`
}
