// Command bcctl is the operator CLI.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"time"

	"connectrpc.com/connect"
	"example.test/buildcache/gen/adminv1"
	"example.test/buildcache/gen/adminv1/adminv1connect"
	"example.test/buildcache/gen/bcv1"
	"example.test/buildcache/internal/pool"
)

func main() {
	addr := flag.String("addr", "http://localhost:8981", "admin API")
	grpcAddr := flag.String("grpc", "localhost:8980", "cache API")
	timeout := flag.Duration("timeout", 0, "per-command timeout (0: none)")
	instance := flag.String("instance", "default", "instance")
	flag.Parse()

	ctx := context.Background()
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	client := adminv1connect.NewAdminServiceClient(http.DefaultClient, *addr)
	switch flag.Arg(0) {
	case "stats":
		res, err := client.Stats(ctx, connect.NewRequest(&adminv1.StatsRequest{Instance: *instance})) // OK: missingdeadline — the -timeout flag, default none, is the user's decision
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(res.Msg.GetBytes(), res.Msg.GetOperations())
	case "evict":
		_, err := client.Evict(ctx, connect.NewRequest(&adminv1.EvictRequest{Instance: *instance, TargetBytes: 1 << 30})) // OK: missingdeadline — user's -timeout
		if err != nil {
			log.Fatal(err)
		}
	case "drain":
		_, err := client.Drain(ctx, connect.NewRequest(&adminv1.DrainRequest{BotId: flag.Arg(1)})) // OK: missingdeadline — user's -timeout
		if err != nil {
			log.Fatal(err)
		}
	case "ping":
		_, err := client.Stats(context.Background(), connect.NewRequest(&adminv1.StatsRequest{})) // BUG: missingdeadline — ignores the -timeout the other verbs apply
		if err != nil {
			log.Fatal(err)
		}
	case "getac":
		conn, err := pool.Dial(ctx, *grpcAddr)
		if err != nil {
			log.Fatal(err)
		}
		defer conn.Close()
		res, err := bcv1.NewActionCacheClient(conn).GetActionResult(ctx, &bcv1.GetActionResultRequest{Instance: *instance, ActionDigest: &bcv1.Digest{Hash: flag.Arg(1)}}) // OK: missingdeadline — user's -timeout
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(res.GetExitCode())
	case "wait":
		conn, err := pool.Dial(ctx, *grpcAddr)
		if err != nil {
			log.Fatal(err)
		}
		stream, err := bcv1.NewExecutionClient(conn).WaitExecution(context.Background(), &bcv1.WaitExecutionRequest{Name: flag.Arg(1)}) // OK: missingdeadline — streaming call
		if err != nil {
			log.Fatal(err)
		}
		for {
			op, err := stream.Recv()
			if err != nil {
				break
			}
			fmt.Println(op.GetStage())
			time.Sleep(100 * time.Millisecond) // OK: ctxless — a CLI, not a request scope
		}
	default:
		fmt.Fprintln(os.Stderr, "usage: bcctl stats|evict|drain|ping|getac|wait")
		os.Exit(2)
	}
}
