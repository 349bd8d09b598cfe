// Command stockctl is the operators' command line for stock and jobs:
//
//	stockctl [flags] prices SKU...        list prices
//	stockctl [flags] stock SKU...         show what is on hand
//	stockctl [flags] check SKU...         show what is available
//	stockctl [flags] get SKU...           show items, retrying transient failures
//	stockctl [flags] adjust SKU DELTA     change the on-hand count
//	stockctl [flags] reserve SKU QTY      reserve stock
//	stockctl [flags] release ID...        release reservations
//	stockctl [flags] list                 list every item
//	stockctl [flags] export               export every item as CSV
//	stockctl [flags] watch SKU...         follow stock changes
//	stockctl [flags] reindex JOB...       rebuild the search entries of jobs
//	stockctl [flags] retry JOB...         put failed jobs back on the queue
//	stockctl [flags] job JOB...           show jobs
//	stockctl [flags] show JOB...          show jobs from the replica
//	stockctl [flags] shard OP SHARD [JOB...]  drain, sync or stage a shard
//	stockctl [flags] lane OP LANE         pause or resume a lane
//	stockctl [flags] raw METHOD SKU       call an inventory method by name
//	stockctl [flags] ping                 check the inventory service answers
package main

import (
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	invpb "example.test/shapes3/gen/inventory/v1"
	jobspb "example.test/shapes3/gen/jobs/v1"
)

const (
	commandTimeout = 10 * time.Second
	pageTimeout    = 5 * time.Second
	pingTimeout    = 2 * time.Second
)

var errUsage = errors.New("usage: see stockctl -h")

func main() {
	inventory := flag.String("inventory", "inventory:9090", "inventory service address")
	dispatcher := flag.String("dispatcher", "dispatcher:9090", "dispatcher address")
	timeout := flag.Duration("timeout", 0, "deadline of lane commands; 0 waits as long as it takes")
	flag.Parse()

	invConn, err := grpc.NewClient(*inventory, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatal(err)
	}
	defer invConn.Close()
	jobsConn, err := grpc.NewClient(*dispatcher, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatal(err)
	}
	defer jobsConn.Close()

	inv := invpb.NewInventoryServiceClient(invConn)
	jobs := jobspb.NewJobServiceClient(jobsConn)
	c := &cli{
		inv:     inv,
		jobs:    jobs,
		cc:      invConn,
		src:     remoteStock{c: inv},
		replica: boundedJobs{c: jobs, d: commandTimeout},
		timeout: *timeout,
		out:     os.Stdout,
	}

	args := flag.Args()
	if len(args) == 0 {
		flag.Usage()
		os.Exit(2)
	}
	rest := args[1:]
	switch args[0] {
	case "prices":
		err = c.prices(rest)
	case "stock":
		err = c.stock(rest)
	case "check":
		err = c.check(rest)
	case "get":
		err = c.get(rest)
	case "adjust":
		err = c.adjust(rest)
	case "reserve":
		err = c.reserve(rest)
	case "release":
		err = c.release(rest)
	case "list":
		err = c.list()
	case "export":
		err = c.export()
	case "watch":
		err = c.watch(rest)
	case "reindex":
		err = c.reindex(rest)
	case "retry":
		err = c.retryJobs(rest)
	case "job":
		err = c.job(rest)
	case "show":
		err = c.show(rest)
	case "shard":
		err = c.shard(rest)
	case "lane":
		err = c.lane(rest)
	case "raw":
		err = c.raw(rest)
	case "ping":
		err = c.ping()
	default:
		err = fmt.Errorf("unknown command %q", args[0])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "stockctl:", err)
		os.Exit(1)
	}
}
