// Command node-agent runs on every node: it serves AgentService for the
// control plane and registers the node with it.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	agentv1 "example.test/operator/gen/agent/v1"
	clusterv1 "example.test/operator/gen/cluster/v1"
	"example.test/operator/internal/agent"
	ctr "example.test/operator/internal/agent/runtime"
	"example.test/operator/internal/journal"
)

const version = "1.14.2"

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "node-agent:", err)
		os.Exit(1)
	}
}

func run() error {
	var (
		listen       = flag.String("listen", ":7450", "AgentService listen address")
		controlPlane = flag.String("control-plane", "clusterd.internal:7443", "ClusterService address")
		ctrBin       = flag.String("ctr", "/usr/bin/ctr", "container runtime CLI")
		journalPath  = flag.String("journal", "/var/lib/node-agent/journal.log", "local journal")
		labels       = flag.String("labels", "", "node labels, k=v,k=v")
		allow        = flag.String("allow", "systemctl,journalctl,df,free,ss", "binaries RunCommand may execute")
	)
	flag.Parse()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	host, err := os.Hostname()
	if err != nil {
		return err
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM) // OK: main
	defer stop()

	j, err := journal.Open(*journalPath)
	if err != nil {
		return err
	}
	defer j.Close()
	rt := &ctr.Ctr{Bin: *ctrBin, Namespace: "cluster"}
	srv := agent.NewServer(host, rt, j, strings.Split(*allow, ","), log)
	gs := grpc.NewServer()
	agentv1.RegisterAgentServiceServer(gs, srv)
	go srv.RunHousekeeping(ctx) // OK: background worker with the process ctx

	lis, err := net.Listen("tcp", *listen)
	if err != nil {
		return err
	}
	_, port, _ := net.SplitHostPort(lis.Addr().String())
	var portNum int32
	fmt.Sscan(port, &portNum)

	conn, err := grpc.NewClient(*controlPlane, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer conn.Close()
	cp := clusterv1.NewClusterServiceClient(conn)
	reg := &clusterv1.RegisterNodeRequest{
		Hostname:     host,
		AgentPort:    portNum,
		Labels:       parseLabels(*labels),
		CpuMillis:    int64(runtime.NumCPU()) * 1000,
		AgentVersion: version,
	}
	if _, err := cp.RegisterNode(ctx, reg); err != nil { // BUG: missingdeadline
		return fmt.Errorf("register with %s: %w", *controlPlane, err)
	}
	go heartbeat(ctx, cp, reg, log) // OK: heartbeat bounds every call

	go func() {
		<-ctx.Done()
		gs.GracefulStop()
	}()
	log.Info("agent serving", "addr", lis.Addr().String(), "runtime", rt.Version())
	return gs.Serve(lis)
}

// heartbeat re-registers every 20s; the control plane treats it as liveness.
func heartbeat(ctx context.Context, cp clusterv1.ClusterServiceClient, reg *clusterv1.RegisterNodeRequest, log *slog.Logger) {
	t := time.NewTicker(20 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		hctx, cancel := context.WithTimeout(ctx, 5*time.Second) // OK
		_, err := cp.RegisterNode(hctx, reg)                    // OK: deadline set
		cancel()
		if err != nil {
			log.Warn("heartbeat", "err", err)
		}
	}
}

func parseLabels(s string) map[string]string {
	out := map[string]string{}
	for _, kv := range strings.Split(s, ",") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			out[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return out
}
