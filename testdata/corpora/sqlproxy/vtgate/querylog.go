package vtgate

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// QueryLogger posts one record per query to the query-log collector.
type QueryLogger struct {
	client *http.Client
	url    string
}

type queryLogRecord struct {
	SQL      string        `json:"sql"`
	Keyspace string        `json:"keyspace"`
	Duration time.Duration `json:"duration"`
	TraceID  string        `json:"trace_id"`
}

// Write posts rec.
func (l *QueryLogger) Write(ctx context.Context, rec queryLogRecord) error {
	if l == nil || l.url == "" {
		return nil
	}
	body, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, l.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := l.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("query log: %s", resp.Status)
	}
	return nil
}
