// Command cluster-gc is the nightly node reaper: nodes that have been
// NotReady for longer than -after get a support bundle collected from their
// agent (when it still answers), are drained and cordoned for good.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	agentv1 "example.test/operator/gen/agent/v1"
	clusterv1 "example.test/operator/gen/cluster/v1"
)

// defaultDeadline bounds every unary call that arrives without a deadline.
func defaultDeadline(d time.Duration) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if _, ok := ctx.Deadline(); !ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, d)
			defer cancel()
		}
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}

type bearer string

func (b bearer) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{"authorization": "Bearer " + string(b)}, nil
}
func (bearer) RequireTransportSecurity() bool { return false }

func main() {
	addr := flag.String("addr", "clusterd.internal:7443", "control-plane address")
	after := flag.Duration("after", 24*time.Hour, "reap nodes NotReady for longer than this")
	bundles := flag.String("bundles", "/var/lib/cluster-gc/bundles", "where support bundles go")
	dry := flag.Bool("dry-run", false, "only print what would be done")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM) // OK: main
	defer stop()

	conn, err := grpc.NewClient(*addr,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithPerRPCCredentials(bearer(os.Getenv("CLUSTER_TOKEN"))),
		grpc.WithUnaryInterceptor(defaultDeadline(30*time.Second)),
	)
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	cs := clusterv1.NewClusterServiceClient(conn)

	var stale []*clusterv1.Node
	token := ""
	for {
		resp, err := cs.ListNodes(ctx, &clusterv1.ListNodesRequest{PageSize: 500, PageToken: token}) // OK: conn sets a default deadline
		if err != nil {
			log.Fatalf("list nodes: %v", err)
		}
		for _, n := range resp.GetNodes() {
			hb := n.GetLastHeartbeat()
			if n.GetPhase() == clusterv1.NodePhase_NODE_PHASE_NOT_READY && hb != nil && time.Since(hb.AsTime()) > *after {
				stale = append(stale, n)
			}
		}
		if token = resp.GetNextPageToken(); token == "" {
			break
		}
	}
	log.Printf("%d nodes NotReady for more than %s", len(stale), *after)

	for _, n := range stale {
		if *dry {
			log.Printf("would reap %s (last heartbeat %s)", n.GetName(), n.GetLastHeartbeat().AsTime())
			continue
		}
		// the bundle comes straight from the agent: the control plane
		// cannot relay a node it considers gone
		ac, err := grpc.NewClient(n.GetAddress(), grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err == nil {
			bundle, err := agentv1.NewAgentServiceClient(ac).CollectDiagnostics(ctx, &agentv1.CollectDiagnosticsRequest{IncludeJournal: true}) // BUG: missingdeadline
			if err == nil {
				path := filepath.Join(*bundles, fmt.Sprintf("%s-%s.tar.gz", n.GetName(), time.Now().Format("20060102")))
				if err := os.WriteFile(path, bundle.GetArchive(), 0o640); err != nil {
					log.Printf("%s: write bundle: %v", n.GetName(), err)
				}
			} else {
				log.Printf("%s: agent unreachable: %v", n.GetName(), err)
			}
			ac.Close()
		}
		if _, err := cs.CordonNode(ctx, &clusterv1.CordonNodeRequest{Name: n.GetName(), Reason: "reaped by cluster-gc"}); err != nil { // OK: conn sets a default deadline
			log.Printf("%s: cordon: %v", n.GetName(), err)
			continue
		}
		op, err := cs.DrainNode(ctx, &clusterv1.DrainNodeRequest{Name: n.GetName(), GracePeriodSeconds: 5, Force: true}) // OK: conn sets a default deadline
		if err != nil {
			log.Printf("%s: drain: %v", n.GetName(), err)
			continue
		}
		log.Printf("%s: drain %s started", n.GetName(), op.GetId())
	}
}
