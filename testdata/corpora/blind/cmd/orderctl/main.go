// Command orderctl is the operators' CLI for the order service.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"time"

	"connectrpc.com/connect"
	notifyv1 "example.test/blind/gen/notifyv1"
	"example.test/blind/gen/notifyv1/notifyv1connect"
	ordersv1 "example.test/blind/gen/ordersv1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
)

var (
	addr      = flag.String("addr", "localhost:8080", "order service address")
	notifyURL = flag.String("notify", "http://localhost:8081", "notify service URL")
	timeout   = flag.Duration("timeout", 0, "per-call timeout for quote (0: none)")
)

func main() {
	flag.Parse()
	conn, err := grpc.NewClient(*addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		fatal(err)
	}
	defer conn.Close()
	client := ordersv1.NewOrderServiceClient(conn)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt) // OK: main
	defer stop()

	args := flag.Args()
	if len(args) < 1 {
		fatal(fmt.Errorf("usage: orderctl get|cancel|quote|create|create-as|list|notify|raw ..."))
	}
	switch args[0] {
	case "get":
		o, err := client.GetOrder(context.Background(), &ordersv1.GetOrderRequest{Id: args[1]}) // BUG: missingdeadline
		if err != nil {
			fatal(err)
		}
		fmt.Println(o.GetId(), o.Status)
	case "cancel":
		err = cmdCancel(ctx, client, args[1:]) // BUG: missingdeadline
	case "quote":
		err = cmdQuote(client, args[1:])
	case "create":
		err = cmdCreate(ctx, client, args[1:]) // OK: cmdCreate sets a timeout
	case "create-as":
		md := metadata.Pairs("authorization", "Bearer "+os.Getenv("ORDERS_TOKEN"))
		octx := metadata.NewOutgoingContext(context.Background(), md)
		_, err = client.CreateOrder(octx, &ordersv1.CreateOrderRequest{CustomerId: args[1]}) // BUG: missingdeadline
	case "list":
		err = cmdList(ctx, client, args[1:]) // OK: streaming
	case "notify":
		nc := notifyv1connect.NewNotifyServiceClient(http.DefaultClient, *notifyURL)
		_, err = nc.Send(context.Background(), connect.NewRequest(&notifyv1.SendRequest{CustomerId: args[1], Template: args[2]})) // BUG: missingdeadline
	case "notify-timed":
		nc := notifyv1connect.NewNotifyServiceClient(http.DefaultClient, *notifyURL)
		tctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		_, err = nc.Send(tctx, connect.NewRequest(&notifyv1.SendRequest{CustomerId: args[1], Template: args[2]})) // OK
		cancel()
	case "raw":
		var out ordersv1.Order
		err = conn.Invoke(context.Background(), ordersv1.OrderService_GetOrder_FullMethodName, &ordersv1.GetOrderRequest{Id: args[1]}, &out) // BUG: missingdeadline
	case "get-timed":
		err = cmdGetTimed(client, args[1])
	case "get-bare":
		err = cmdGetBare(client, args[1])
	case "get-many":
		err = cmdGetMany(client, args[1:])
	case "raw-timed":
		var out ordersv1.Order
		rctx, cancel := context.WithDeadline(ctx, time.Now().Add(5*time.Second))
		defer cancel()
		err = conn.Invoke(rctx, ordersv1.OrderService_GetOrder_FullMethodName, &ordersv1.GetOrderRequest{Id: args[1]}, &out) // OK
	}
	if err != nil {
		fatal(err)
	}
}

func cmdCancel(ctx context.Context, client ordersv1.OrderServiceClient, args []string) error {
	_, err := client.CancelOrder(ctx, &ordersv1.CancelOrderRequest{Id: args[0], Reason: "operator"})
	return err
}

func cmdQuote(client ordersv1.OrderServiceClient, args []string) error {
	ctx := context.Background()
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	q, err := client.QuoteOrder(ctx, &ordersv1.QuoteOrderRequest{Currency: args[0]}) // OK: the deadline is the user's -timeout flag, applied when set (precision issue)
	if err != nil {
		return err
	}
	fmt.Println(q.TotalCents, q.Currency)
	return nil
}

func cmdCreate(ctx context.Context, client ordersv1.OrderServiceClient, args []string) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	ctx = metadata.AppendToOutgoingContext(ctx, "x-idempotency-key", args[0])
	o, err := client.CreateOrder(ctx, &ordersv1.CreateOrderRequest{CustomerId: args[1]}) // OK
	if err != nil {
		return err
	}
	fmt.Println(o.GetId())
	return nil
}

func cmdList(ctx context.Context, client ordersv1.OrderServiceClient, args []string) error {
	stream, err := client.ListOrders(ctx, &ordersv1.ListOrdersRequest{CustomerId: args[0]}) // OK: streaming
	if err != nil {
		return err
	}
	for {
		o, err := stream.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		fmt.Println(o.GetId(), o.Status)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "orderctl:", err)
	os.Exit(1)
}
