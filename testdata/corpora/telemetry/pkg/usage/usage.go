// Package usage reports per-tenant ingested bytes to the billing endpoint.
package usage

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// Reporter posts usage records.
type Reporter struct {
	URL     string
	Client  *http.Client
	Timeout time.Duration
}

// NewReporter returns a reporter posting to url.
func NewReporter(url string) *Reporter {
	return &Reporter{URL: url, Client: &http.Client{}, Timeout: 5 * time.Second}
}

type record struct {
	Tenant string    `json:"tenant"`
	Bytes  int64     `json:"bytes"`
	At     time.Time `json:"at"`
}

// Report posts one usage record.
func (r *Reporter) Report(ctx context.Context, tenant string, n int64) error {
	body, _ := json.Marshal(record{Tenant: tenant, Bytes: n, At: time.Now()})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.URL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := r.Client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("usage: %s", resp.Status)
	}
	return nil
}

// ReportBounded is Report under the reporter's own timeout.
func (r *Reporter) ReportBounded(ctx context.Context, tenant string, n int64) error {
	ctx, cancel := context.WithTimeout(ctx, r.Timeout)
	defer cancel()
	return r.Report(ctx, tenant, n)
}
