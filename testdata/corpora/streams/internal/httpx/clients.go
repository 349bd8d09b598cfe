// Package httpx builds the HTTP clients and servers of the feed service: webhooks to customer
// endpoints, the schema registry client, and the admin server.
package httpx

import (
	"net"
	"net/http"
	"time"
)

// Config holds the admin server's limits, from flags.
type Config struct {
	ReadTimeout  time.Duration
	WriteTimeout time.Duration
}

// WebhookClient posts event batches to customer endpoints.
func WebhookClient() *http.Client {
	return &http.Client{
		Timeout: 30, // BUG: deadlinemath
		Transport: &http.Transport{
			Proxy:               http.ProxyFromEnvironment,
			MaxIdleConns:        100, // OK: a count, not a time.Duration field
			MaxIdleConnsPerHost: 8,
			IdleConnTimeout:     90, // BUG: deadlinemath
			TLSHandshakeTimeout: 10 * time.Second,
		},
	}
}

// RegistryClient talks to the schema registry. Schema bundles are streamed and can be large,
// so there is no overall timeout; the transport bounds connection set-up and headers instead.
func RegistryClient() *http.Client {
	return &http.Client{
		Timeout: 0, // OK: zero is "no overall timeout", on purpose for streamed bundles
		Transport: &http.Transport{
			DialContext:            (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
			ResponseHeaderTimeout:  15 * time.Second,
			ExpectContinueTimeout:  time.Second,
			MaxResponseHeaderBytes: 64 << 10, // OK: bytes, not a time.Duration field
		},
	}
}

// AdminServer serves metrics, health and pprof.
func AdminServer(addr string, h http.Handler, cfg Config) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: 5,               // BUG: deadlinemath
		ReadTimeout:       cfg.ReadTimeout, // OK: a variable from flags
		WriteTimeout:      cfg.WriteTimeout,
		MaxHeaderBytes:    1 << 20, // OK: bytes, not a time.Duration field
	}
}
