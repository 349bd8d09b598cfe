package distributor

import (
	"bytes"
	"context"
	"fmt"
	"net/http"

	"google.golang.org/protobuf/proto"

	"example.test/telemetry/gen/pushpb"
)

// Forwarder sends a copy of every push to a secondary OTLP-like endpoint
// (the metrics generator).
type Forwarder struct {
	URL    string
	Client *http.Client
}

// Forward posts the request for the tenant.
func (f *Forwarder) Forward(ctx context.Context, tenant string, req *pushpb.PushRequest) error {
	if f == nil || f.URL == "" {
		return nil
	}
	body, err := proto.Marshal(req)
	if err != nil {
		return err
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, f.URL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	hreq.Header.Set("Content-Type", "application/x-protobuf")
	hreq.Header.Set("X-Scope-OrgID", tenant)
	resp, err := f.Client.Do(hreq)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("forward: %s", resp.Status)
	}
	return nil
}
