package agent

import (
	"context"
	"math/rand/v2"
	"os/exec"
	"time"
)

// RunHousekeeping prunes unused images and reaps exited tasks until ctx is
// done. It runs for the life of the agent.
func (s *Server) RunHousekeeping(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(s.housekeepEvery):
		}
		if s.draining.Load() {
			continue
		}
		// spread the prune load of a fleet restarted at once
		time.Sleep(time.Duration(rand.IntN(30)) * time.Second)                                                // OK: background worker, not a handler
		out, err := exec.Command(s.rt.Bin, "-n", s.rt.Namespace, "images", "prune", "--all").CombinedOutput() // OK: background worker
		if err != nil {
			s.log.Warn("image prune", "err", err, "output", string(out))
		}
		s.reapExited(ctx) // OK: background worker
	}
}

// reapExited deletes tasks that exited and are not managed by a workload.
// Reaping is local and must not be cut short by whoever triggered it.
func (s *Server) reapExited(ctx context.Context) {
	rctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := s.rt.List(rctx)
	if err != nil {
		s.log.Warn("reap: list", "err", err)
		return
	}
	for _, c := range cs {
		if c.Running || c.Labels["workload"] != "" {
			continue
		}
		if err := s.rt.Remove(rctx, c.ID); err != nil {
			s.log.Warn("reap", "id", c.ID, "err", err)
		}
	}
}
