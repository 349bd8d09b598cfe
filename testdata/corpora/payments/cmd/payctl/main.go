// Command payctl is the operators' command-line client for the payments and
// ledger APIs.
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
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	ledgerv1 "example.test/payments/gen/ledger/v1"
	paymentsv1 "example.test/payments/gen/payments/v1"
	"example.test/payments/internal/payclient"
)

var (
	paymentsAddr = flag.String("payments", "localhost:8443", "payments API address")
	ledgerAddr   = flag.String("ledger", "localhost:8443", "ledger API address")
	timeout      = flag.Duration("timeout", 10*time.Second, "per-call timeout; 0 waits for as long as the server takes")
	merchant     = flag.String("merchant", "", "merchant id")
	token        = flag.String("token", os.Getenv("PAYCTL_TOKEN"), "API token")
)

// ledgerCallTimeout is the deadline ledger calls get when the command sets none.
const ledgerCallTimeout = 15 * time.Second

func usage() {
	fmt.Fprintf(os.Stderr, `usage: payctl [flags] <command> [args]

commands:
  create <amount> <currency> <card-token>   create a payment
  get <id>                                  print a payment
  capture <id>                              capture an authorized payment
  refund <id> [reason]                      refund a captured payment
  list                                      list the merchant's payments
  receipt <id> [format]                     write a receipt to stdout
  watch <id>                                follow a payment's status
  authorize <id> <amount> <currency> <card> authorize on the streaming API
  raw-get <id>                              GetPayment through ClientConn.Invoke
  export <id>...                            print several payments as JSON lines
  ledger balance|transfer|entries ...       ledger commands

flags:
`)
	flag.PrintDefaults()
}

func main() {
	flag.Usage = usage
	flag.Parse()
	if flag.NArg() < 1 {
		usage()
		os.Exit(2)
	}
	cmd, args := flag.Arg(0), flag.Args()[1:]
	var err error
	switch cmd {
	case "create":
		err = runCreate(args)
	case "get":
		err = runGet(args)
	case "capture":
		err = runCapture(args)
	case "refund":
		err = runRefund(args)
	case "list":
		err = runList(args)
	case "receipt":
		err = runReceipt(args)
	case "watch":
		err = runWatch(args)
	case "authorize":
		err = runAuthorize(args)
	case "raw-get":
		err = runRawGet(args)
	case "export":
		err = runExport(args)
	case "ledger":
		err = runLedger(args)
	default:
		err = fmt.Errorf("unknown command %q", cmd)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "payctl:", err)
		os.Exit(1)
	}
}

type tokenCreds string

func (t tokenCreds) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{"authorization": "Bearer " + string(t)}, nil
}

func (tokenCreds) RequireTransportSecurity() bool { return false }

func dialPayments() (*grpc.ClientConn, paymentsv1.PaymentServiceClient, error) {
	conn, err := grpc.NewClient(*paymentsAddr,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithPerRPCCredentials(tokenCreds(*token)))
	if err != nil {
		return nil, nil, fmt.Errorf("dial %s: %w", *paymentsAddr, err)
	}
	return conn, paymentsv1.NewPaymentServiceClient(conn), nil
}

func need(args []string, n int, what string) error {
	if len(args) < n {
		return fmt.Errorf("missing arguments: %s", what)
	}
	return nil
}

func printJSON(m proto.Message) error {
	b, err := protojson.MarshalOptions{Multiline: true, Indent: "  "}.Marshal(m)
	if err != nil {
		return err
	}
	_, err = fmt.Printf("%s\n", b)
	return err
}

func runCreate(args []string) error {
	if err := need(args, 3, "amount currency card-token"); err != nil {
		return err
	}
	minor, err := strconv.ParseInt(args[0], 10, 64)
	if err != nil {
		return fmt.Errorf("amount: %w", err)
	}
	conn, client, err := dialPayments()
	if err != nil {
		return err
	}
	defer conn.Close()

	key := fmt.Sprintf("payctl-%d", time.Now().UnixNano())
	ctx := metadata.NewOutgoingContext(context.Background(), metadata.Pairs("x-request-source", "payctl"))
	p, err := client.CreatePayment(ctx, &paymentsv1.CreatePaymentRequest{ // BUG: missingdeadline
		MerchantId:     *merchant,
		Amount:         &paymentsv1.Money{Currency: args[1], MinorUnits: minor},
		CardToken:      args[2],
		IdempotencyKey: key,
	})
	if err != nil {
		return err
	}
	return printJSON(p)
}

func runGet(args []string) error {
	if err := need(args, 1, "payment id"); err != nil {
		return err
	}
	conn, client, err := dialPayments()
	if err != nil {
		return err
	}
	defer conn.Close()

	ctx, cancel := context.WithTimeout(context.Background(), *timeout) // OK
	defer cancel()
	p, err := client.GetPayment(ctx, &paymentsv1.GetPaymentRequest{Id: args[0]}) // OK
	if err != nil {
		return err
	}
	return printJSON(p)
}

func runCapture(args []string) error {
	if err := need(args, 1, "payment id"); err != nil {
		return err
	}
	conn, client, err := dialPayments()
	if err != nil {
		return err
	}
	defer conn.Close()

	p, err := client.CapturePayment(context.Background(), &paymentsv1.CapturePaymentRequest{Id: args[0]}) // BUG: missingdeadline
	if err != nil {
		return err
	}
	return printJSON(p)
}

func runRefund(args []string) error {
	if err := need(args, 1, "payment id"); err != nil {
		return err
	}
	reason := "requested_by_customer"
	if len(args) > 1 {
		reason = args[1]
	}
	conn, client, err := dialPayments()
	if err != nil {
		return err
	}
	defer conn.Close()
	pc := payclient.New(client, *timeout)

	ctx := context.Background()
	p, err := pc.Get(ctx, args[0]) // BUG: missingdeadline
	if err != nil {
		return err
	}
	if p.GetStatus() != paymentsv1.PaymentStatus_PAYMENT_STATUS_CAPTURED {
		return fmt.Errorf("payment %s is %s, not captured", p.GetId(), p.GetStatus())
	}
	r, err := pc.Refund(ctx, p.GetId(), nil, reason) // OK
	if err != nil {
		return err
	}
	return printJSON(r)
}

func runList(args []string) error {
	if *merchant == "" {
		return errors.New("-merchant is required")
	}
	conn, client, err := dialPayments()
	if err != nil {
		return err
	}
	defer conn.Close()
	pc := payclient.New(client, *timeout)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)
	go func() {
		<-sigs
		cancel()
	}()
	payments, err := pc.List(ctx, *merchant) // BUG: missingdeadline
	if err != nil {
		return err
	}
	for _, p := range payments {
		fmt.Printf("%s\t%s\t%d %s\t%s\n", p.GetId(), p.GetStatus(), p.GetAmount().GetMinorUnits(),
			p.GetAmount().GetCurrency(), p.GetCreatedAt().AsTime().Format(time.RFC3339))
	}
	return nil
}

func runReceipt(args []string) error {
	if err := need(args, 1, "payment id"); err != nil {
		return err
	}
	format := "pdf"
	if len(args) > 1 {
		format = args[1]
	}
	conn, client, err := dialPayments()
	if err != nil {
		return err
	}
	defer conn.Close()

	ctx := context.Background()
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	r, err := client.GetReceipt(ctx, &paymentsv1.GetReceiptRequest{PaymentId: args[0], Format: format}) // OK: the deadline is the user's -timeout flag, applied when set (precision issue)
	if err != nil {
		return err
	}
	_, err = os.Stdout.Write(r.GetBody())
	return err
}

func runWatch(args []string) error {
	if err := need(args, 1, "payment id"); err != nil {
		return err
	}
	conn, client, err := dialPayments()
	if err != nil {
		return err
	}
	defer conn.Close()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt) // OK
	defer stop()
	stream, err := client.WatchPayment(ctx, &paymentsv1.WatchPaymentRequest{Id: args[0]}) // OK
	if err != nil {
		return err
	}
	for {
		ev, err := stream.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		fmt.Printf("%s\t%s\n", ev.GetPaymentId(), ev.GetStatus())
	}
}

func runAuthorize(args []string) error {
	if err := need(args, 4, "payment-id amount currency card-token"); err != nil {
		return err
	}
	minor, err := strconv.ParseInt(args[1], 10, 64)
	if err != nil {
		return fmt.Errorf("amount: %w", err)
	}
	conn, client, err := dialPayments()
	if err != nil {
		return err
	}
	defer conn.Close()

	stream, err := client.StreamAuthorizations(context.Background()) // OK
	if err != nil {
		return err
	}
	if err := stream.Send(&paymentsv1.AuthorizeRequest{
		PaymentId: args[0],
		Amount:    &paymentsv1.Money{Currency: args[2], MinorUnits: minor},
		CardToken: args[3],
	}); err != nil {
		return err
	}
	if err := stream.CloseSend(); err != nil {
		return err
	}
	resp, err := stream.Recv()
	if err != nil {
		return err
	}
	return printJSON(resp)
}

func runRawGet(args []string) error {
	if err := need(args, 1, "payment id"); err != nil {
		return err
	}
	conn, _, err := dialPayments()
	if err != nil {
		return err
	}
	defer conn.Close()

	in := &paymentsv1.GetPaymentRequest{Id: args[0]}
	out := new(paymentsv1.Payment)
	if err := conn.Invoke(context.Background(), paymentsv1.PaymentService_GetPayment_FullMethodName, in, out); err != nil { // BUG: missingdeadline
		return err
	}
	return printJSON(out)
}

func fetchPayment(ctx context.Context, client paymentsv1.PaymentServiceClient, id string) (*paymentsv1.Payment, error) {
	p, err := client.GetPayment(ctx, &paymentsv1.GetPaymentRequest{Id: id}) // OK
	if err != nil {
		return nil, fmt.Errorf("%s: %w", id, err)
	}
	return p, nil
}

func runExport(args []string) error {
	conn, client, err := dialPayments()
	if err != nil {
		return err
	}
	defer conn.Close()

	ctx := context.Background()
	for _, id := range args {
		p, err := fetchPayment(ctx, client, id) // BUG: missingdeadline
		if err != nil {
			return err
		}
		b, err := protojson.Marshal(p)
		if err != nil {
			return err
		}
		fmt.Printf("%s\n", b)
	}
	return nil
}

// defaultDeadline gives every ledger call a deadline unless the caller set one.
func defaultDeadline(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, ledgerCallTimeout)
		defer cancel()
	}
	return invoker(ctx, method, req, reply, cc, opts...)
}

func runLedger(args []string) error {
	if err := need(args, 1, "ledger subcommand"); err != nil {
		return err
	}
	conn, err := grpc.NewClient(*ledgerAddr,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithPerRPCCredentials(tokenCreds(*token)),
		grpc.WithUnaryInterceptor(defaultDeadline))
	if err != nil {
		return fmt.Errorf("dial %s: %w", *ledgerAddr, err)
	}
	defer conn.Close()
	lc := ledgerv1.NewLedgerServiceClient(conn)

	switch sub, rest := args[0], args[1:]; sub {
	case "balance":
		if err := need(rest, 1, "account id"); err != nil {
			return err
		}
		b, err := lc.GetBalance(context.Background(), &ledgerv1.GetBalanceRequest{AccountId: rest[0]}) // OK
		if err != nil {
			return err
		}
		return printJSON(b)
	case "transfer":
		if err := need(rest, 4, "from to amount currency"); err != nil {
			return err
		}
		minor, err := strconv.ParseInt(rest[2], 10, 64)
		if err != nil {
			return fmt.Errorf("amount: %w", err)
		}
		t, err := lc.PostTransfer(context.Background(), &ledgerv1.PostTransferRequest{ // OK
			FromAccount: rest[0],
			ToAccount:   rest[1],
			AmountMinor: minor,
			Currency:    rest[3],
			Reference:   fmt.Sprintf("payctl-%d", time.Now().Unix()),
		})
		if err != nil {
			return err
		}
		return printJSON(t)
	case "entries":
		if err := need(rest, 2, "account-id business-date"); err != nil {
			return err
		}
		stream, err := lc.ListEntries(context.Background(), &ledgerv1.ListEntriesRequest{AccountId: rest[0], BusinessDate: rest[1]}) // OK
		if err != nil {
			return err
		}
		for {
			e, err := stream.Recv()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			fmt.Printf("%s\t%s\t%d %s\t%s\n", e.GetId(), e.GetAccountId(), e.GetAmountMinor(), e.GetCurrency(), e.GetReference())
		}
	default:
		return fmt.Errorf("unknown ledger subcommand %q", sub)
	}
}
