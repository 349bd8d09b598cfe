// Command searchctl is the operator CLI for the search service.
//
//	searchctl query TEXT [WAREHOUSE]
//	searchctl index SKU NAME WAREHOUSE
//	searchctl reindex WAREHOUSE
//	searchctl stats
//	searchctl suggest   (reads prefixes from stdin)
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	searchv1 "example.test/mature/gen/search/v1"
	"example.test/mature/internal/clients/searchclient"
)

var (
	addr    = flag.String("addr", "localhost:7002", "search service address")
	timeout = flag.Duration("timeout", 5*time.Second, "budget of each call")
	limit   = flag.Int("limit", 20, "maximum hits")
	batch   = flag.Int("batch", 500, "reindex batch size")
)

func main() {
	flag.Parse()
	if err := run(flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "searchctl:", err)
		os.Exit(1)
	}
}

func need(args []string, n int) error {
	if len(args) < n {
		return fmt.Errorf("%s: want %d arguments", args[0], n-1)
	}
	return nil
}

func run(args []string) error {
	if len(args) == 0 {
		return errors.New("missing command")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt) // OK
	defer stop()

	c, err := searchclient.Dial(*addr)
	if err != nil {
		return err
	}
	defer c.Close()

	switch args[0] {
	case "query":
		if err := need(args, 2); err != nil {
			return err
		}
		warehouse := ""
		if len(args) > 2 {
			warehouse = args[2]
		}
		qctx, cancel := context.WithTimeout(ctx, *timeout)
		defer cancel()
		hits, err := c.Query(qctx, args[1], warehouse, *limit) // OK
		if err != nil {
			return err
		}
		for _, h := range hits {
			fmt.Printf("%-20s %6.3f  %s\n", h.GetSku(), h.GetScore(), h.GetName())
		}
	case "index":
		if err := need(args, 4); err != nil {
			return err
		}
		ictx, cancel := context.WithDeadline(ctx, time.Now().Add(*timeout))
		defer cancel()
		return c.Index(ictx, args[1], args[2], args[3]) // OK
	case "reindex":
		if err := need(args, 2); err != nil {
			return err
		}
		n, err := c.Reindex(ctx, args[1], *batch) // OK
		if err != nil {
			return err
		}
		fmt.Printf("indexed %d documents\n", n)
	case "stats":
		st, err := c.Stats(ctx) // BUG: missingdeadline
		if err != nil {
			return err
		}
		fmt.Printf("documents %d\npending   %d\n", st.GetDocuments(), st.GetPending())
	case "suggest":
		stream, err := c.Suggest(ctx) // OK
		if err != nil {
			return err
		}
		return suggest(stream, os.Stdin)
	default:
		return fmt.Errorf("unknown command %q", args[0])
	}
	return nil
}

func suggest(stream searchv1.SearchService_SuggestClient, in io.Reader) error {
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		if err := stream.Send(&searchv1.SuggestRequest{Prefix: sc.Text()}); err != nil {
			return err
		}
		resp, err := stream.Recv()
		if err != nil {
			return err
		}
		fmt.Println(strings.Join(resp.GetCompletions(), "  "))
	}
	if err := stream.CloseSend(); err != nil {
		return err
	}
	return sc.Err()
}
