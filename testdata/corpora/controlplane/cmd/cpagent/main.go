// Command cpagent runs a node agent.
package main

import (
	"context"
	"flag"
	"log"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	cpv1 "example.test/controlplane/gen/controlplane/v1"
	"example.test/controlplane/internal/agent"
	"example.test/controlplane/internal/plugin"
	"example.test/controlplane/internal/rpcx"
)

func main() {
	var (
		nodeID    = flag.String("node", "", "node id")
		addr      = flag.String("addr", "127.0.0.1:7600", "address the control plane reaches this node at")
		serverURL = flag.String("server", "http://localhost:7080", "NodeService URL")
		jobsAddr  = flag.String("jobs", "localhost:7443", "JobService address")
	)
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()

	ag := agent.New(agent.Config{NodeID: *nodeID, Address: *addr, ServerURL: *serverURL}, http.DefaultClient, plugin.NewExecDriver())
	if err := ag.Register(ctx); err != nil { // BUG: missingdeadline — Register hands the signal ctx (no deadline) to the RegisterNode unary call: start-up hangs on an unresponsive server.
		log.Fatalf("register: %v", err)
	}

	// After a restart, find out what the server thinks runs here.
	conn, err := rpcx.NewClientConn(*jobsAddr)
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	jobs := cpv1.NewJobServiceClient(conn)
	resp, err := jobs.ListJobs(ctx, &cpv1.ListJobsRequest{Node: *nodeID}) // OK: missingdeadline look-alike — the conn comes from rpcx.NewClientConn, which always installs the DefaultDeadline unary interceptor.
	if err != nil {
		log.Printf("recover: %v", err)
	} else {
		log.Printf("%d jobs assigned to this node", len(resp.GetJobs()))
	}

	if err := ag.Run(ctx); err != nil {
		log.Fatal(err)
	}
}
