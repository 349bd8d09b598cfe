// Package archival archives closed workflows on a schedule.
package archival

import (
	"context"
	"time"

	frontendv1 "example.test/workflow/gen/frontend/v1"
	"example.test/workflow/internal/obs"
	"example.test/workflow/sdk"
)

// Job archives closed workflows.
type Job struct {
	client *sdk.Client
	every  time.Duration
	ids    func() []string
}

// New makes a job.
func New(c *sdk.Client, every time.Duration, ids func() []string) *Job {
	return &Job{client: c, every: every, ids: ids}
}

// Run runs the job until ctx ends.
func (j *Job) Run(ctx context.Context) {
	t := time.NewTicker(j.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		rctx, cancel := context.WithTimeout(ctx, j.every)
		for _, id := range j.ids() {
			st, err := j.client.Describe(id) // BUG: missingdeadline — the convenience API has no deadline; the job has rctx at hand
			if err != nil || st != "closed" {
				continue
			}
			_, err = j.client.Service().SignalWorkflow(rctx, &frontendv1.SignalWorkflowRequest{WorkflowId: id, Signal: "archive"}) // OK: missingdeadline — bounded per cycle
			if err != nil {
				obs.L.Error(rctx, "archive", "wf", id, "err", err)
			}
		}
		cancel()
	}
}
