package suite

import (
	"context"

	testing "github.com/mitchellh/go-testing-interface"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"example.com/gen/catalogpb"
)

// TestServer starts a server for other packages' tests, given testing.T's methods as an
// interface (github.com/mitchellh/go-testing-interface), as HashiCorp's modules keep such
// helpers outside _test.go files: run by a test.
func TestServer(t testing.T, client catalogpb.CatalogClient) {
	t.Helper()
	if _, err := client.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: "bootstrap"}); err != nil {
		t.Fatalf("bootstrap: %v", err)
	}
}

// mustGet and checkGet are helpers given testify's TestingT: run by a test.
func mustGet(t require.TestingT, client catalogpb.CatalogClient) *catalogpb.Item {
	item, err := client.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: "6"})
	require.NoError(t, err)
	return item
}

func checkGet(t assert.TestingT, client catalogpb.CatalogClient) {
	if _, err := client.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: "7"}); err != nil {
		t.Errorf("get: %v", err)
	}
}

// T is a production type named like the interface: a tenant.
type T interface{ Name() string }

func greet(t T, client catalogpb.CatalogClient) {
	_, _ = client.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: t.Name()}) // want `RPC CatalogClient\.GetItem has no deadline`
}
