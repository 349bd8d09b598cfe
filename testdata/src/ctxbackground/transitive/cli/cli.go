// Package cli calls the same helpers from main: not a request scope, nothing reported.
package cli

import (
	"context"
	"net/http"

	"ctxbackground/transitive/pricing"
	"ctxbackground/transitive/service"
)

func main() { // want main:"drops ctx"
	var svc service.Service
	_, _ = svc.Get(context.Background(), "1")
	_, _ = pricing.Quote(http.DefaultClient, "1")
}
