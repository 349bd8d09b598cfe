// Command shopctl is a small CLI for the shop services.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"example.test/shop/proto/shoppb"
)

func main() {
	addr := flag.String("addr", "localhost:7070", "server address")
	timeout := flag.Duration("timeout", 5*time.Second, "per-command timeout (not applied to watch; 0 disables for cancel)")
	flag.Parse()

	conn, err := grpc.NewClient(*addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		fail(err)
	}
	defer conn.Close()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	if err := dispatch(ctx, conn, *timeout, flag.Args()); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "shopctl:", err)
	os.Exit(1)
}

func dispatch(ctx context.Context, conn *grpc.ClientConn, timeout time.Duration, args []string) error {
	if len(args) == 0 {
		return errors.New("usage: shopctl [get SKU | watch CUSTOMER | quote SKU QTY | wait]")
	}
	catalog := shoppb.NewCatalogClient(conn)
	orders := shoppb.NewOrdersClient(conn)
	pricing := shoppb.NewPricingClient(conn)

	switch args[0] {
	case "get":
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		p, err := catalog.GetProduct(ctx, &shoppb.GetProductRequest{Sku: args[1]})
		if err != nil {
			return err
		}
		fmt.Printf("%s %s %d\n", p.GetSku(), p.GetName(), p.GetPriceCents())
	case "watch":
		// Runs until the server ends the stream or the user presses Ctrl-C.
		stream, err := orders.WatchOrders(ctx, &shoppb.WatchOrdersRequest{CustomerId: args[1]})
		if err != nil {
			return err
		}
		for {
			ev, err := stream.Recv()
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return err
			}
			fmt.Println(ev.GetOrderId(), ev.GetStatus(), time.Unix(ev.GetAtUnix(), 0).Format(time.RFC3339))
		}
	case "quote":
		var qty int32
		fmt.Sscan(args[2], &qty)
		q, err := pricing.Quote(context.Background(), &shoppb.PriceQuoteRequest{Items: []*shoppb.LineItem{{Sku: args[1], Qty: qty}}}) // BUG: missingdeadline — B8: the CLI's quote ignores -timeout
		if err != nil {
			return err
		}
		fmt.Println(q.GetTotalCents())
	case "cancel":
		// -timeout=0 lets operators wait on a stuck lock; Ctrl-C still works.
		cctx := ctx
		if timeout > 0 {
			var cancel context.CancelFunc
			cctx, cancel = context.WithTimeout(ctx, timeout)
			defer cancel()
		}
		o, err := orders.CancelOrder(cctx, &shoppb.GetOrderRequest{Id: args[1]})
		if err != nil {
			return err
		}
		fmt.Println(o.GetId(), o.GetStatus())
	case "wait":
		return waitReady(ctx, catalog, timeout)
	default:
		return fmt.Errorf("unknown command %q", args[0])
	}
	return nil
}

// waitReady polls until the server answers, for use in deploy scripts.
func waitReady(ctx context.Context, c shoppb.CatalogClient, total time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, total)
	defer cancel()
	for {
		pctx, pcancel := context.WithTimeout(ctx, 500*time.Millisecond)
		_, err := c.GetProduct(pctx, &shoppb.GetProductRequest{Sku: "__ping__"})
		pcancel()
		if code := status.Code(err); code != codes.Unavailable && code != codes.DeadlineExceeded {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("server not ready after %v", total)
		}
		time.Sleep(250 * time.Millisecond)
	}
}
