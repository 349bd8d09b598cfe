package ingester

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"example.test/telemetry/gen/pushpb"
)

// remoteWriter sends a copy of appended spans to the metrics generator.
type remoteWriter struct {
	url    string
	client *http.Client
}

// Send posts the spans for the tenant.
func (w *remoteWriter) Send(ctx context.Context, tenant string, spans []*pushpb.Span) error {
	body, err := json.Marshal(spans)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("X-Scope-OrgID", tenant)
	resp, err := w.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("remote write: %s", resp.Status)
	}
	return nil
}
