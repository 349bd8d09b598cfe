// Package wrap is a library's convenience API over the store: no ctx in its signature.
package wrap

import (
	"context"

	"missingdeadline/clientapis/store"
)

// Fetch reads the default key with a root of its own.
func Fetch() (string, error) { // want Fetch:"noCtxAPI\\(context.Background\\(\\): store.Lookup\\)"
	return store.Lookup(context.Background(), "default")
}

// Name makes no call: calling it is no client call.
func Name() string { return "default" }
