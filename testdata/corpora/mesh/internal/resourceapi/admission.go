package resourceapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"example.test/mesh/internal/store"
	"example.test/mesh/internal/telemetry"
)

// admitter validates a resource before it is written.
type admitter interface {
	Admit(ctx context.Context, r store.Resource) error
}

// httpAdmitter calls the mesh's validating webhook.
type httpAdmitter struct {
	url    string
	client *http.Client
	log    *telemetry.Logger
}

type admissionReview struct {
	Key     string            `json:"key"`
	Labels  map[string]string `json:"labels"`
	Spec    []byte            `json:"spec"`
	Allowed bool              `json:"allowed"`
	Reason  string            `json:"reason"`
}

func (a *httpAdmitter) Admit(ctx context.Context, r store.Resource) error {
	a.log.Debug(ctx, "admission review", "key", r.Key.String())
	body, err := json.Marshal(admissionReview{Key: r.Key.String(), Labels: r.Labels, Spec: r.Spec})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, a.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := a.client.Do(req)
	if err != nil {
		return fmt.Errorf("webhook: %w", err)
	}
	defer resp.Body.Close()
	var out admissionReview
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return fmt.Errorf("webhook response: %w", err)
	}
	if !out.Allowed {
		return fmt.Errorf("denied: %s", out.Reason)
	}
	return nil
}

// schemaRegistry knows the resource types of the mesh.
type schemaRegistry interface {
	Lookup(ctx context.Context, typ string) (schema, bool)
}

type schema struct {
	Name       string
	Scope      string
	MaxSpecLen int
}

// staticSchemas is the built-in registry, compiled in.
type staticSchemas map[string]schema

func (s staticSchemas) Lookup(_ context.Context, typ string) (schema, bool) {
	sc, ok := s[typ]
	return sc, ok
}

var builtinSchemas = staticSchemas{
	"TrafficPolicy":    {Name: "TrafficPolicy", Scope: "mesh", MaxSpecLen: 64 << 10},
	"Endpoint":         {Name: "Endpoint", Scope: "mesh", MaxSpecLen: 4 << 10},
	"ServiceProfile":   {Name: "ServiceProfile", Scope: "mesh", MaxSpecLen: 16 << 10},
	"WorkloadIdentity": {Name: "WorkloadIdentity", Scope: "mesh", MaxSpecLen: 1 << 10},
}

// quota is the per-mesh object limit, kept in memory and refreshed by the reconciler.
type quota struct {
	limits map[string]int
}

// Check reports whether mesh may hold one more object. The ctx is for future remote quotas.
func (q *quota) Check(_ context.Context, mesh string, have int) bool {
	lim, ok := q.limits[mesh]
	return !ok || have < lim
}

// failpoint marks a place where fault-injection builds insert a failure. In normal builds
// it does nothing.
func failpoint(name string, fn func()) {}

func (q *quota) observe(mesh string, n int) {
	if lim, ok := q.limits[mesh]; ok && n > lim {
		q.limits[mesh] = n
	}
}

// workPool runs submitted jobs on a fixed set of workers, after the request that submitted them.
type workPool struct {
	jobs chan func()
}

func newWorkPool(workers, depth int) *workPool {
	p := &workPool{jobs: make(chan func(), depth)}
	for i := 0; i < workers; i++ {
		go func() {
			for job := range p.jobs {
				job()
			}
		}()
	}
	return p
}

// Submit queues job; a full queue drops it.
func (p *workPool) Submit(job func()) {
	select {
	case p.jobs <- job:
	default:
	}
}
