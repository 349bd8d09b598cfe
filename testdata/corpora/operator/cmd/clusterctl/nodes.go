package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"text/tabwriter"
	"time"

	clusterv1 "example.test/operator/gen/cluster/v1"
)

func listNodes(ctx context.Context, c clusterv1.ClusterServiceClient, timeout time.Duration) error {
	w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tPHASE\tSCHEDULABLE\tADDRESS\tAGENT")
	token := ""
	for {
		cctx, cancel := context.WithTimeout(ctx, timeout)                                            // OK
		resp, err := c.ListNodes(cctx, &clusterv1.ListNodesRequest{PageSize: 200, PageToken: token}) // OK: deadline set
		cancel()
		if err != nil {
			return err
		}
		for _, n := range resp.GetNodes() {
			fmt.Fprintf(w, "%s\t%s\t%t\t%s\t%s\n", n.GetName(), phase(n.GetPhase()), !n.GetUnschedulable(), n.GetAddress(), n.GetAgentVersion())
		}
		if token = resp.GetNextPageToken(); token == "" {
			break
		}
	}
	return w.Flush()
}

func phase(p clusterv1.NodePhase) string {
	switch p {
	case clusterv1.NodePhase_NODE_PHASE_READY:
		return "Ready"
	case clusterv1.NodePhase_NODE_PHASE_NOT_READY:
		return "NotReady"
	case clusterv1.NodePhase_NODE_PHASE_DRAINING:
		return "Draining"
	case clusterv1.NodePhase_NODE_PHASE_PENDING:
		return "Pending"
	}
	return "Unknown"
}

func getNode(ctx context.Context, c clusterv1.ClusterServiceClient, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("get-node: name required")
	}
	live := len(args) > 1 && args[1] == "--live"
	n, err := c.GetNode(ctx, &clusterv1.GetNodeRequest{Name: args[0], Live: live})
	if err != nil {
		return err
	}
	fmt.Printf("name:        %s\nphase:       %s\naddress:     %s\nschedulable: %t\ncpu:         %dm\nmemory:      %d\nagent:       %s\n",
		n.GetName(), phase(n.GetPhase()), n.GetAddress(), !n.GetUnschedulable(), n.GetCpuMillis(), n.GetMemoryBytes(), n.GetAgentVersion())
	if hb := n.GetLastHeartbeat(); hb != nil {
		fmt.Printf("heartbeat:   %s ago\n", time.Since(hb.AsTime()).Round(time.Second))
	}
	for k, v := range n.GetLabels() {
		fmt.Printf("label:       %s=%s\n", k, v)
	}
	return nil
}

func cordon(ctx context.Context, c clusterv1.ClusterServiceClient, uncordon bool, args []string, timeout time.Duration) error {
	if len(args) == 0 {
		return fmt.Errorf("cordon: name required")
	}
	reason := ""
	if len(args) > 1 {
		reason = args[1]
	}
	ctx, cancel := context.WithTimeout(ctx, timeout) // OK
	defer cancel()
	n, err := c.CordonNode(ctx, &clusterv1.CordonNodeRequest{Name: args[0], Uncordon: uncordon, Reason: reason}) // OK: deadline set
	if err != nil {
		return err
	}
	fmt.Printf("%s: schedulable=%t\n", n.GetName(), !n.GetUnschedulable())
	return nil
}

// drain starts a drain and waits for it; ^C stops waiting (the drain
// continues on the server).
func drain(ctx context.Context, c clusterv1.ClusterServiceClient, args []string, timeout time.Duration) error {
	if len(args) == 0 {
		return fmt.Errorf("drain: name required")
	}
	grace := 0
	if len(args) > 1 {
		g, err := strconv.Atoi(args[1])
		if err != nil {
			return fmt.Errorf("drain: grace: %w", err)
		}
		grace = g
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	op, err := c.DrainNode(ctx, &clusterv1.DrainNodeRequest{Name: args[0], GracePeriodSeconds: int32(grace)})
	if err != nil {
		return err
	}
	fmt.Printf("drain started: %s\n", op.GetId())
	return waitOperation(ctx, c, op.GetId(), timeout) // OK
}

func execOn(ctx context.Context, c clusterv1.ClusterServiceClient, args []string) error {
	if len(args) < 3 || args[1] != "--" {
		return fmt.Errorf("exec: usage: exec NODE -- ARGV")
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute) // OK
	defer cancel()
	resp, err := c.ExecOnNode(ctx, &clusterv1.ExecOnNodeRequest{Node: args[0], Argv: args[2:]}) // OK: deadline set
	if err != nil {
		return err
	}
	os.Stdout.Write(resp.GetStdout())
	os.Stderr.Write(resp.GetStderr())
	if code := resp.GetExitCode(); code != 0 {
		return fmt.Errorf("exit status %d", code)
	}
	return nil
}

func health(c clusterv1.ClusterServiceClient) error {
	h, err := c.GetClusterHealth(context.Background(), &clusterv1.GetClusterHealthRequest{ProbeAgents: true}) // BUG: missingdeadline
	if err != nil {
		return err
	}
	fmt.Printf("store ok:   %t\nleader:     %t\nnodes:      %d/%d ready\nqueue:      %d\n",
		h.GetStoreOk(), h.GetLeader(), h.GetReadyNodes(), h.GetTotalNodes(), h.GetQueueDepth())
	for _, n := range h.GetNodes() {
		state := "ok"
		if !n.GetReachable() {
			state = "unreachable: " + n.GetError()
		}
		fmt.Printf("  %-24s %8s  %s\n", n.GetName(), time.Duration(n.GetLatencyMicros())*time.Microsecond, state)
	}
	return nil
}
