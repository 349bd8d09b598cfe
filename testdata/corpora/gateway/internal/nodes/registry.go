// Package nodes talks to the agents running on every edge node.
package nodes

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// Registry knows the agents' admin endpoints.
type Registry struct {
	client *http.Client
	agents map[string]string // node name -> base URL
}

// NewRegistry returns a registry of the given agents.
func NewRegistry(client *http.Client, agents map[string]string) *Registry {
	return &Registry{client: client, agents: agents}
}

// Drain asks node's agent to move its connections elsewhere within grace, and
// waits for it to finish.
func (r *Registry) Drain(ctx context.Context, node string, grace time.Duration) (int32, error) {
	base, ok := r.agents[node]
	if !ok {
		return 0, fmt.Errorf("nodes: unknown node %q", node)
	}
	u := base + "/drain?grace=" + url.QueryEscape(strconv.Itoa(int(grace.Seconds())))
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, nil)
	if err != nil {
		return 0, err
	}
	resp, err := r.client.Do(req)
	if err != nil {
		return 0, fmt.Errorf("nodes: drain %s: %w", node, err)
	}
	defer resp.Body.Close()
	var out struct {
		Moved int32 `json:"moved"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return 0, err
	}
	return out.Moved, nil
}
