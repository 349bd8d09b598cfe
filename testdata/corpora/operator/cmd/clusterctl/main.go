// Command clusterctl is the operator CLI of the cluster manager.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	clusterv1 "example.test/operator/gen/cluster/v1"
)

const usage = `usage: clusterctl [flags] COMMAND [args]

commands:
  nodes                       list nodes
  get-node NAME [--live]      show one node
  cordon NAME [REASON]        mark a node unschedulable
  uncordon NAME               mark a node schedulable
  drain NAME [GRACE]          drain a node and wait for it
  exec NODE -- ARGV...        run a command on a node
  apply FILE                  create or update a workload from a JSON file
  get NAME                    show a workload
  delete NAME [--purge]       delete a workload
  scale NAME REPLICAS         change the replica count
  restart NAME [--wait]       restart every replica
  op ID                       wait for an operation
  health                      show control-plane health
  watch [KIND...]             stream changes
  logs NODE [UNIT]            follow a unit's journal on a node
`

type bearer string

func (b bearer) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{"authorization": "Bearer " + string(b)}, nil
}
func (bearer) RequireTransportSecurity() bool { return false }

func dial(addr, token string) (*grpc.ClientConn, error) {
	opts := []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}
	if token != "" {
		opts = append(opts, grpc.WithPerRPCCredentials(bearer(token)))
	}
	return grpc.NewClient(addr, opts...)
}

func main() {
	addr := flag.String("addr", envOr("CLUSTER_ADDR", "localhost:7443"), "control-plane address")
	token := flag.String("token", os.Getenv("CLUSTER_TOKEN"), "API token")
	timeout := flag.Duration("timeout", 15*time.Second, "per-call timeout (0: none)")
	flag.Usage = func() { fmt.Fprint(os.Stderr, usage); flag.PrintDefaults() }
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	conn, err := dial(*addr, *token)
	if err != nil {
		fatal(err)
	}
	defer conn.Close()
	c := clusterv1.NewClusterServiceClient(conn)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt) // OK: main
	defer stop()

	cmd, args := flag.Arg(0), flag.Args()[1:]
	switch cmd {
	case "nodes":
		err = listNodes(ctx, c, *timeout) // OK: listNodes applies the timeout
	case "get-node":
		err = getNode(ctx, c, args) // BUG: missingdeadline
	case "cordon", "uncordon":
		err = cordon(ctx, c, cmd == "uncordon", args, *timeout) // OK
	case "drain":
		err = drain(ctx, c, args, *timeout) // BUG: missingdeadline
	case "exec":
		err = execOn(ctx, c, args) // OK: execOn applies its own timeout
	case "apply":
		err = apply(ctx, c, args, *timeout) // OK
	case "get":
		err = getWorkload(ctx, c, args, *timeout) // OK
	case "delete":
		err = deleteWorkload(ctx, c, args, *timeout) // OK
	case "scale":
		err = scale(c, args, *timeout)
	case "restart":
		err = restart(ctx, c, args, *timeout) // OK
	case "op":
		if len(args) != 1 {
			err = fmt.Errorf("op: operation id required")
			break
		}
		err = waitOperation(ctx, c, args[0], *timeout) // OK
	case "health":
		err = health(c)
	case "watch":
		err = watch(c, args)
	case "logs":
		err = logs(ctx, c, args) // OK: streaming
	default:
		flag.Usage()
		os.Exit(2)
	}
	if err != nil {
		fatal(err)
	}
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "clusterctl:", err)
	os.Exit(1)
}
