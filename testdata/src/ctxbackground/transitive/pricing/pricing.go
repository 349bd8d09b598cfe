// Package pricing is a client wrapper with no ctx at all.
package pricing

import (
	"context"
	"net/http"
)

// Quote asks the pricing service with a context of its own.
func Quote(client *http.Client, id string) (*http.Response, error) { // want Quote:"drops ctx: context.Background\\(\\) at .*/pricing.go:11"
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, "http://pricing/"+id, nil)
	if err != nil {
		return nil, err
	}
	return client.Do(req)
}

// QuoteCtx takes the caller's ctx: fine.
func QuoteCtx(ctx context.Context, client *http.Client, id string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://pricing/"+id, nil)
	if err != nil {
		return nil, err
	}
	return client.Do(req)
}
