// Command orderctl is the operators' command line client of ordersd and of
// the downstream payments and inventory services.
//
//	orderctl [flags] get ORDER_ID
//	orderctl [flags] list CUSTOMER_ID
//	orderctl [flags] cancel ORDER_ID [REASON]
//	orderctl [flags] watch ORDER_ID
//	orderctl [flags] replay [TOPIC]
//	orderctl [flags] payment PAYMENT_ID
//	orderctl [flags] capture PAYMENT_ID AMOUNT_CENTS
//	orderctl [flags] refund ORDER_ID [AMOUNT_CENTS]
//	orderctl [flags] stock SKU...
//	orderctl [flags] release RESERVATION_ID
//	orderctl [flags] stock-watch SKU...
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/timeout"
	"go.opentelemetry.io/otel"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	inventoryv1 "example.test/realworld/gen/inventory/v1"
	ordersv1 "example.test/realworld/gen/orders/v1"
	paymentsv1 "example.test/realworld/gen/payments/v1"
)

var out = protojson.MarshalOptions{Multiline: true, EmitUnpopulated: false}

func show(m proto.Message) {
	b, err := out.Marshal(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	fmt.Println(string(b))
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "orderctl: "+format+"\n", args...)
	os.Exit(1)
}

func main() {
	var (
		addr           = flag.String("addr", "localhost:8443", "ordersd address")
		paymentsAddr   = flag.String("payments-addr", "payments.internal:8443", "payments service address")
		inventoryAddr  = flag.String("inventory-addr", "inventory.internal:8443", "inventory service address")
		token          = flag.String("token", os.Getenv("ORDERS_TOKEN"), "bearer token for ordersd")
		rpcTimeout     = flag.Duration("timeout", 10*time.Second, "per-call timeout for ordersd calls")
		releaseTimeout = flag.Duration("release-timeout", 0, "timeout for release (0: none)")
	)
	flag.Parse()
	args := flag.Args()
	if len(args) < 1 {
		flag.Usage()
		os.Exit(2)
	}
	arg := func(i int) string {
		if i >= len(args) {
			fail("%s: missing argument %d", args[0], i)
		}
		return args[i]
	}

	ctx, span := otel.Tracer("orderctl").Start(context.Background(), "orderctl "+args[0]) // OK
	defer span.End()
	ctx = metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+*token)

	conn, err := grpc.NewClient(*addr,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithChainUnaryInterceptor(timeout.UnaryClientInterceptor(*rpcTimeout)),
	)
	if err != nil {
		fail("dial ordersd: %v", err)
	}
	defer conn.Close()
	orders := ordersv1.NewOrdersServiceClient(conn)

	payConn, err := grpc.NewClient(*paymentsAddr,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithChainUnaryInterceptor(retry.UnaryClientInterceptor(retry.WithMax(3), retry.WithCodes(codes.Unavailable))),
	)
	if err != nil {
		fail("dial payments: %v", err)
	}
	defer payConn.Close()
	payments := paymentsv1.NewPaymentsServiceClient(payConn)

	invConn, err := grpc.NewClient(*inventoryAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		fail("dial inventory: %v", err)
	}
	defer invConn.Close()
	inventory := inventoryv1.NewInventoryServiceClient(invConn)

	switch args[0] {
	case "get":
		o, err := orders.GetOrder(ctx, &ordersv1.GetOrderRequest{OrderId: arg(1), ConsistentRead: true}) // OK
		if err != nil {
			fail("get: %v", err)
		}
		show(o)

	case "list":
		resp, err := orders.ListOrders(ctx, &ordersv1.ListOrdersRequest{CustomerId: arg(1), PageSize: 50, IncludePaymentStatus: true}) // OK
		if err != nil {
			fail("list: %v", err)
		}
		show(resp)

	case "cancel":
		reason := "cancelled by operator"
		if len(args) > 2 {
			reason = args[2]
		}
		o, err := orders.CancelOrder(ctx, &ordersv1.CancelOrderRequest{OrderId: arg(1), Reason: reason}) // OK
		if err != nil {
			fail("cancel: %v", err)
		}
		show(o)

	case "watch":
		stream, err := orders.WatchOrder(ctx, &ordersv1.WatchOrderRequest{OrderId: arg(1)}) // OK
		if err != nil {
			fail("watch: %v", err)
		}
		for {
			ev, err := stream.Recv()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				fail("watch: %v", err)
			}
			show(ev)
		}

	case "replay":
		topic := ""
		if len(args) > 1 {
			topic = args[1]
		}
		resp, err := orders.ReplayEvents(ctx, &ordersv1.ReplayEventsRequest{Topic: topic}) // OK
		if err != nil {
			fail("replay: %v", err)
		}
		show(resp)

	case "payment":
		p, err := payments.GetPayment(ctx, &paymentsv1.GetPaymentRequest{Id: arg(1)}) // BUG: missingdeadline
		if err != nil {
			fail("payment: %v", err)
		}
		show(p)

	case "capture":
		amount, err := strconv.ParseInt(arg(2), 10, 64)
		if err != nil {
			fail("capture: amount: %v", err)
		}
		cctx, cancel := context.WithTimeout(ctx, 15*time.Second)
		defer cancel()
		p, err := payments.Capture(cctx, &paymentsv1.CaptureRequest{PaymentId: arg(1), AmountCents: amount}) // OK
		if err != nil {
			fail("capture: %v", err)
		}
		show(p)

	case "refund":
		var amount int64
		if len(args) > 2 {
			if amount, err = strconv.ParseInt(args[2], 10, 64); err != nil {
				fail("refund: amount: %v", err)
			}
		}
		if err := refund(ctx, orders, payments, arg(1), amount); err != nil { // BUG: missingdeadline
			fail("refund: %v", err)
		}

	case "stock":
		sctx, cancel := context.WithCancel(ctx)
		defer cancel()
		resp, err := inventory.CheckStock(sctx, &inventoryv1.CheckStockRequest{Skus: args[1:]}) // BUG: missingdeadline
		if err != nil {
			fail("stock: %v", err)
		}
		show(resp)

	case "release":
		rctx := ctx
		if *releaseTimeout > 0 {
			var cancel context.CancelFunc
			rctx, cancel = context.WithTimeout(ctx, *releaseTimeout)
			defer cancel()
		}
		resp, err := inventory.Release(rctx, &inventoryv1.ReleaseRequest{ReservationId: arg(1)}) // OK: the deadline is the user's -timeout flag, applied when set (precision issue)
		if err != nil {
			fail("release: %v", err)
		}
		show(resp)

	case "stock-watch":
		stream, err := inventory.WatchStock(ctx, &inventoryv1.WatchStockRequest{Skus: args[1:]}) // OK
		if err != nil {
			fail("stock-watch: %v", err)
		}
		for {
			lvl, err := stream.Recv()
			if err != nil {
				if !errors.Is(err, io.EOF) {
					fail("stock-watch: %v", err)
				}
				return
			}
			show(lvl)
		}

	default:
		fail("unknown command %q", args[0])
	}
}

// refund refunds an order through the payments service directly (for when
// ordersd itself is down) and prints the payment.
func refund(ctx context.Context, orders ordersv1.OrdersServiceClient, payments paymentsv1.PaymentsServiceClient, orderID string, amount int64) error {
	o, err := orders.GetOrder(ctx, &ordersv1.GetOrderRequest{OrderId: orderID, ConsistentRead: true})
	if err != nil {
		return err
	}
	if amount <= 0 {
		amount = o.GetTotalCents()
	}
	p, err := payments.Refund(ctx, &paymentsv1.RefundRequest{PaymentId: o.GetPaymentId(), AmountCents: amount, Reason: "operator refund"})
	if err != nil {
		return err
	}
	show(p)
	return nil
}
