// Command catalogctl is a command-line client of the catalog service.
//
//	catalogctl [-addr host:port] get ID
//	catalogctl [-addr host:port] set-price ID CENTS
//	catalogctl [-addr host:port] watch CATEGORY
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/deadlinelint/deadlinelint/examples/catalog/catalogv1"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:7070", "catalog service `address`")
	timeout := flag.Duration("timeout", 5*time.Second, "deadline of each unary call")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: catalogctl [flags] get ID | set-price ID CENTS | watch CATEGORY")
		flag.PrintDefaults()
	}
	flag.Parse()
	os.Exit(run(*addr, *timeout, flag.Args()))
}

// run runs one command and returns the exit status.
func run(addr string, timeout time.Duration, args []string) int {
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		fmt.Fprintln(os.Stderr, "catalogctl:", err)
		return 1
	}
	defer conn.Close()
	client := catalogv1.NewCatalogServiceClient(conn)

	switch {
	case len(args) == 2 && args[0] == "get":
		err = get(client, args[1])
	case len(args) == 3 && args[0] == "set-price":
		err = setPrice(client, args[1], args[2], timeout)
	case len(args) == 2 && args[0] == "watch":
		err = watch(client, args[1])
	default:
		flag.Usage()
		return 2
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "catalogctl:", err)
		return 1
	}
	return 0
}

// get prints one item.
func get(client catalogv1.CatalogServiceClient, id string) error {
	item, err := client.GetItem(context.Background(), &catalogv1.GetItemRequest{Id: id}) // planted: missingdeadline
	if err != nil {
		return err
	}
	fmt.Printf("%s\t%s\t%s\t%d\n", item.GetId(), item.GetSku(), item.GetName(), item.GetPriceCents())
	return nil
}

// setPrice reads an item and writes it back with a new price; both calls
// share one deadline.
func setPrice(client catalogv1.CatalogServiceClient, id, cents string, timeout time.Duration) error {
	price, err := strconv.ParseInt(cents, 10, 64)
	if err != nil {
		return fmt.Errorf("price %q: %w", cents, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	item, err := client.GetItem(ctx, &catalogv1.GetItemRequest{Id: id})
	if err != nil {
		return err
	}
	item.PriceCents = price
	updated, err := client.UpdateItem(ctx, &catalogv1.UpdateItemRequest{Item: item, Actor: os.Getenv("USER")})
	if err != nil {
		return err
	}
	fmt.Printf("%s now costs %d (version %d)\n", updated.GetId(), updated.GetPriceCents(), updated.GetVersion())
	return nil
}

// watch prints change events until interrupted. A stream lives as long as
// the user wants it: it has no deadline, only cancellation.
func watch(client catalogv1.CatalogServiceClient, category string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	stream, err := client.WatchItems(ctx, &catalogv1.WatchItemsRequest{Category: category})
	if err != nil {
		return err
	}
	for {
		ev, err := stream.Recv()
		if errors.Is(err, io.EOF) || ctx.Err() != nil {
			return nil
		}
		if err != nil {
			return err
		}
		fmt.Printf("%s\t%s\t%d\n", ev.GetKind(), ev.GetItem().GetId(), ev.GetItem().GetVersion())
	}
}
