// Command invctl is the operator CLI for the inventory and pricing services.
//
//	invctl get SKU
//	invctl list WAREHOUSE
//	invctl adjust SKU DELTA REASON
//	invctl available WAREHOUSE SKU...
//	invctl watch SKU...
//	invctl import < items.jsonl
//	invctl raw-get SKU
//	invctl price SKU [CURRENCY]
//	invctl watch-prices SKU...
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	inventoryv1 "example.test/mature/gen/inventory/v1"
	pricingv1 "example.test/mature/gen/pricing/v1"
	"example.test/mature/gen/pricing/v1/pricingv1connect"
)

// withDefaultTimeout gives every unary call that has no deadline of its own
// a budget of d.
func withDefaultTimeout(d time.Duration) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if _, ok := ctx.Deadline(); !ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, d)
			defer cancel()
		}
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}

func arg(args []string, i int) string {
	if i < len(args) {
		return args[i]
	}
	fmt.Fprintf(os.Stderr, "invctl %s: missing argument %d\n", args[0], i)
	os.Exit(2)
	return ""
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "invctl:", err)
		os.Exit(1)
	}
}

func show(m proto.Message) {
	b, err := protojson.Marshal(m)
	check(err)
	fmt.Println(string(b))
}

func main() {
	addr := flag.String("addr", "localhost:7001", "inventory service address")
	pricingURL := flag.String("pricing", "http://localhost:7003", "pricing service base URL")
	timeout := flag.Duration("timeout", 10*time.Second, "budget of each unary call")
	flag.Parse()
	args := flag.Args()
	if len(args) == 0 {
		flag.Usage()
		os.Exit(2)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt) // OK
	defer stop()
	ctx = metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+os.Getenv("INVCTL_TOKEN"))

	conn, err := grpc.NewClient(*addr,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithUnaryInterceptor(withDefaultTimeout(*timeout)),
	)
	check(err)
	defer conn.Close()
	client := inventoryv1.NewInventoryServiceClient(conn)
	prices := pricingv1connect.NewPricingServiceClient(http.DefaultClient, *pricingURL)

	switch args[0] {
	case "get":
		resp, err := client.GetItem(ctx, &inventoryv1.GetItemRequest{Sku: arg(args, 1)}) // OK
		check(err)
		show(resp.GetItem())
	case "list":
		resp, err := client.ListItems(ctx, &inventoryv1.ListItemsRequest{Warehouse: arg(args, 1), PageSize: 100}) // OK
		check(err)
		for _, it := range resp.GetItems() {
			show(it)
		}
	case "adjust":
		delta, err := strconv.ParseInt(arg(args, 2), 10, 64)
		check(err)
		resp, err := client.AdjustStock(ctx, &inventoryv1.AdjustStockRequest{Sku: arg(args, 1), Delta: delta, Reason: arg(args, 3)}) // OK
		check(err)
		show(resp)
	case "available":
		resp, err := client.CheckAvailability(ctx, &inventoryv1.CheckAvailabilityRequest{Warehouse: arg(args, 1), Skus: args[2:]}) // OK
		check(err)
		show(resp)
	case "watch":
		stream, err := client.WatchStock(ctx, &inventoryv1.WatchStockRequest{Skus: args[1:]}) // OK
		check(err)
		for {
			ev, err := stream.Recv()
			if errors.Is(err, io.EOF) {
				return
			}
			check(err)
			show(ev)
		}
	case "import":
		stream, err := client.ImportItems(ctx) // OK
		check(err)
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			it := &inventoryv1.Item{}
			check(protojson.Unmarshal(sc.Bytes(), it))
			check(stream.Send(it))
		}
		check(sc.Err())
		resp, err := stream.CloseAndRecv()
		check(err)
		show(resp)
	case "raw-get":
		in := &inventoryv1.GetItemRequest{Sku: arg(args, 1)}
		out := &inventoryv1.GetItemResponse{}
		rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		err := conn.Invoke(rctx, inventoryv1.InventoryService_GetItem_FullMethodName, in, out) // OK
		cancel()
		check(err)
		show(out)
	case "price":
		currency := ""
		if len(args) > 2 {
			currency = args[2]
		}
		pctx, cancel := context.WithDeadline(ctx, time.Now().Add(*timeout))
		resp, err := prices.GetPrice(pctx, connect.NewRequest(&pricingv1.GetPriceRequest{Sku: arg(args, 1), Currency: currency})) // OK
		cancel()
		check(err)
		show(resp.Msg)
	case "watch-prices":
		stream, err := prices.WatchPrices(ctx, connect.NewRequest(&pricingv1.WatchPricesRequest{Skus: args[1:]})) // OK
		check(err)
		for stream.Receive() {
			b, _ := json.Marshal(map[string]any{"sku": stream.Msg().GetSku(), "cents": stream.Msg().GetUnitPriceCents()})
			fmt.Println(string(b))
		}
		check(stream.Err())
	default:
		fmt.Fprintf(os.Stderr, "invctl: unknown command %q\n", args[0])
		os.Exit(2)
	}
}
