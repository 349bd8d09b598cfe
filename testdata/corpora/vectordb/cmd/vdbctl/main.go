// Command vdbctl is the operator CLI of the cluster.
//
//	vdbctl [-addr host:port] [-timeout 5s] VERB args...
//
// Verbs: describe DB NAME, show DB, flush COLLID VCHANNEL, load COLLID,
// watch DB, ping, admin (get|set|nodes) ..., shell.
package main

import (
	"flag"
	"fmt"
	"net/http"
	"os"
	"strconv"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"example.test/vectordb/gen/vdbpb"
	"example.test/vectordb/internal/grpcx"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:19530", "proxy / coordinator address")
	adminURL := flag.String("admin", "http://127.0.0.1:9091", "admin service base URL")
	timeout := flag.Duration("timeout", 0, "deadline of the command (0: none)")
	flag.Parse()
	args := flag.Args()
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "usage: vdbctl VERB args...")
		os.Exit(2)
	}

	cc, err := grpc.NewClient(*addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		fatal(err)
	}
	defer cc.Close()
	px := vdbpb.NewProxyClient(cc)
	dc := vdbpb.NewDataCoordClient(cc)
	qc := vdbpb.NewQueryCoordClient(cc)
	rc := vdbpb.NewRootCoordClient(cc)

	ctx, cancel := grpcx.OptionalTimeout(*timeout) // OK: missingdeadline — the deadline is the user's -timeout, which defaults to none
	defer cancel()

	switch verb, rest := args[0], args[1:]; verb {
	case "describe":
		resp, err := px.DescribeCollection(ctx, &vdbpb.DescribeCollectionRequest{Db: arg(rest, 0), Name: arg(rest, 1)}) // OK: missingdeadline — the user's -timeout decides
		check(err)
		fmt.Printf("%d %s dim=%d channels=%v\n", resp.GetInfo().GetId(), resp.GetInfo().GetName(), resp.GetInfo().GetDim(), resp.GetInfo().GetVchannels())
	case "show":
		resp, err := px.ShowCollections(ctx, &vdbpb.ShowCollectionsRequest{Db: arg(rest, 0)}) // OK: missingdeadline — the user's -timeout decides
		check(err)
		for i, n := range resp.GetNames() {
			fmt.Printf("%d\t%s\n", resp.GetIds()[i], n)
		}
	case "flush":
		id, _ := strconv.ParseInt(arg(rest, 0), 10, 64)
		resp, err := dc.Flush(ctx, &vdbpb.FlushRequest{CollectionId: id, Vchannel: arg(rest, 1)}) // OK: missingdeadline — the user's -timeout decides
		check(err)
		fmt.Println("flushing segments", resp.GetSegmentIds())
	case "load":
		id, _ := strconv.ParseInt(arg(rest, 0), 10, 64)
		_, err := qc.LoadCollection(ctx, &vdbpb.LoadCollectionRequest{CollectionId: id, Replicas: 1}) // OK: missingdeadline — the user's -timeout decides
		check(err)
	case "watch":
		stream, err := rc.WatchCollections(ctx, &vdbpb.WatchCollectionsRequest{Db: arg(rest, 0)}) // OK: missingdeadline — a server-streaming call
		check(err)
		for {
			ev, err := stream.Recv()
			if err != nil {
				check(err)
			}
			fmt.Println(ev.GetKind(), ev.GetInfo().GetName())
		}
	case "ping":
		resp, err := http.Get(*adminURL + "/healthz") // OK: ctxless — a CLI, not a request scope
		check(err)
		resp.Body.Close()
		fmt.Println(resp.Status)
	case "admin":
		check(runAdmin(*adminURL, rest))
	case "shell":
		check(runShell(cc, os.Stdin, os.Stdout))
	default:
		fmt.Fprintln(os.Stderr, "unknown verb", verb)
		os.Exit(2)
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
		fatal(err)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "vdbctl:", err)
	os.Exit(1)
}
