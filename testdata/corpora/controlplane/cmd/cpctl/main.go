// Command cpctl is the control plane's command-line client.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"os/signal"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	cpv1 "example.test/controlplane/gen/controlplane/v1"
	"example.test/controlplane/gen/controlplane/v1/cpv1connect"
	"example.test/controlplane/internal/rpcx"
	"example.test/controlplane/internal/shell"
)

func main() {
	var (
		addr      = flag.String("addr", "localhost:7443", "JobService address")
		serverURL = flag.String("server", "http://localhost:7080", "NodeService URL")
		timeout   = flag.Duration("timeout", 0, "overall timeout of the command (0: none)")
	)
	flag.Parse()
	if flag.NArg() < 1 {
		log.Fatal("usage: cpctl [flags] submit|get|cancel|list|watch|nodes|ping|drain|shell ...")
	}
	verb, args := flag.Arg(0), flag.Args()[1:]

	conn, err := grpc.NewClient(*addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	jobs := cpv1.NewJobServiceClient(conn)
	nodes := cpv1connect.NewNodeServiceClient(http.DefaultClient, *serverURL)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}

	switch verb {
	case "submit":
		if len(args) < 2 {
			log.Fatal("usage: cpctl submit NAMESPACE IMAGE [ARGS...]")
		}
		resp, err := jobs.SubmitJob(ctx, &cpv1.SubmitJobRequest{Job: &cpv1.Job{Namespace: args[0], Driver: "exec", Image: args[1], Args: args[2:]}}) // OK: missingdeadline look-alike — the deadline is applied only when the user sets -timeout (default 0): the user's decision.
		check(err)
		fmt.Println(resp.GetId())
	case "get":
		resp, err := jobs.GetJob(ctx, &cpv1.GetJobRequest{Id: arg(args, 0)}) // OK: missingdeadline look-alike — same -timeout decision (if *timeout > 0).
		check(err)
		fmt.Printf("%s\t%s\t%s\n", resp.GetJob().GetId(), resp.GetJob().GetState(), resp.GetTaskState())
	case "cancel":
		_, err := jobs.CancelJob(ctx, &cpv1.CancelJobRequest{Id: arg(args, 0)}) // OK: missingdeadline look-alike — same -timeout decision.
		check(err)
	case "list":
		resp, err := jobs.ListJobs(ctx, &cpv1.ListJobsRequest{Namespace: arg(args, 0)})
		check(err)
		for _, j := range resp.GetJobs() {
			fmt.Printf("%s\t%s\n", j.GetId(), j.GetState())
		}
	case "watch":
		stream, err := jobs.WatchJobs(ctx, &cpv1.WatchJobsRequest{Namespace: arg(args, 0)})
		check(err)
		for {
			ev, err := stream.Recv()
			if errors.Is(err, io.EOF) {
				return
			}
			check(err)
			fmt.Printf("%s %s\n", ev.GetType(), ev.GetJob().GetId())
		}
	case "nodes":
		resp, err := nodes.ListNodes(ctx, connect.NewRequest(&cpv1.ListNodesRequest{Status: arg(args, 0)}))
		check(err)
		for _, n := range resp.Msg.GetNodes() {
			fmt.Printf("%s\t%s\n", n.GetId(), n.GetStatus())
		}
	case "ping":
		pctx, pcancel := rpcx.CallContext(*timeout)
		defer pcancel()
		start := time.Now()
		_, err := nodes.ListNodes(pctx, connect.NewRequest(&cpv1.ListNodesRequest{Status: "ready"})) // OK: missingdeadline look-alike — CallContext bounds the ctx only when its duration (the caller's -timeout flag) is > 0: the user's decision.
		check(err)
		fmt.Printf("ok (%s)\n", time.Since(start).Round(time.Millisecond))
	case "drain":
		// Draining waits for every task on the node to stop.
		dctx, dcancel := rpcx.CallContext(0)
		defer dcancel()
		_, err := nodes.DeregisterNode(dctx, connect.NewRequest(&cpv1.DeregisterNodeRequest{NodeId: arg(args, 0)})) // BUG: missingdeadline — CallContext(0): a constant 0 chooses no deadline, ignoring the user's -timeout that every other verb honours.
		check(err)
	case "shell":
		env := &shell.Env{Jobs: jobs, Nodes: nodes, Out: os.Stdout}
		check(shell.New(env).Run(os.Stdin))
	default:
		log.Fatalf("unknown verb %q", verb)
	}
}

func arg(args []string, i int) string {
	if i < len(args) {
		return args[i]
	}
	return ""
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
