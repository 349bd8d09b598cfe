// Command mesh-agent runs the data-plane agent on a node.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"example.test/mesh/internal/agent"
)

func main() {
	var cfg agent.Config
	var workloads, probes string
	flag.StringVar(&cfg.NodeID, "node", "", "node id")
	flag.StringVar(&cfg.Zone, "zone", "default", "zone")
	flag.StringVar(&cfg.ControlPlane, "cp", "localhost:5681", "control plane address")
	flag.StringVar(&cfg.Identity, "identity", "", "workload identity (spiffe://…)")
	flag.StringVar(&cfg.SidecarBin, "sidecar", "/usr/local/bin/envoy", "sidecar binary")
	flag.StringVar(&cfg.ConfigDir, "config-dir", "/var/run/mesh", "config directory")
	flag.StringVar(&cfg.LocalADS, "local-ads", "127.0.0.1:15010", "local ADS listen address")
	flag.StringVar(&workloads, "workloads", "", "comma-separated workloads")
	flag.StringVar(&probes, "probes", "", "comma-separated name=url health probes")
	flag.DurationVar(&cfg.BootstrapTimeout, "bootstrap-timeout", 0, "time limit for fetching the bootstrap (0: none)")
	flag.DurationVar(&cfg.HeartbeatTimeout, "heartbeat-timeout", 3*time.Second, "heartbeat time limit")
	flag.DurationVar(&cfg.FetchTimeout, "fetch-timeout", 10*time.Second, "trust bundle time limit")
	flag.DurationVar(&cfg.Heartbeat, "heartbeat", 5*time.Second, "heartbeat interval")
	flag.Parse()
	cfg.Version = "dev"
	if workloads != "" {
		cfg.Workloads = strings.Split(workloads, ",")
	}
	for _, p := range strings.Split(probes, ",") {
		if name, url, ok := strings.Cut(p, "="); ok {
			cfg.Probes = append(cfg.Probes, agent.Probe{Name: name, URL: url})
		}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM) // OK: ctxbackground — main is not a request scope
	defer stop()
	a, err := agent.New(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := a.Run(ctx); err != nil { // OK: missingdeadline — every unary call Run reaches has its own bound or its own root, reported where it is made
		fmt.Fprintln(os.Stderr, "agent:", err)
		os.Exit(1)
	}
}
