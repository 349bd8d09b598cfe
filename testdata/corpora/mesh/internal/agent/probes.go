package agent

import (
	"net/http"
	"os/exec"
	"path/filepath"
	"time"

	"context"
)

// Probe is a workload health probe.
type Probe struct {
	Name string
	URL  string
}

func (a *Agent) probeLoop(ctx context.Context) {
	t := time.NewTicker(5 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			for _, p := range a.cfg.Probes {
				state := "down"
				resp, err := http.Get(p.URL) // OK: ctxless — the agent's probe loop is a background worker, not a request scope
				if err == nil {
					if resp.StatusCode < 400 {
						state = "up"
					}
					resp.Body.Close()
				}
				a.mu.Lock()
				a.probes[p.Name] = state
				a.mu.Unlock()
			}
		}
	}
}

func (a *Agent) startSidecar() (*exec.Cmd, error) {
	cmd := exec.Command(a.cfg.SidecarBin, "-c", filepath.Join(a.cfg.ConfigDir, "bootstrap.json")) // OK: ctxless — the sidecar lives as long as the agent; no request here
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return cmd, nil
}
