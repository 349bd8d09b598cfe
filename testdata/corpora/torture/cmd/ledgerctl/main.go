// Command ledgerctl is the operator CLI for the ledger.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"strconv"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	ledgerv1 "example.test/torture/gen/ledger/v1"
)

// withDefaultTimeout gives every unary call that has no deadline of its own a
// deadline of d.
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

func main() {
	addr := flag.String("addr", "localhost:7443", "ledger address")
	timeout := flag.Duration("timeout", 10*time.Second, "default call timeout")
	flag.Parse()
	args := flag.Args()
	if len(args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: ledgerctl post|balance|resolve|history ACCOUNT [AMOUNT MEMO]")
		os.Exit(2)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt) // OK
	defer stop()

	conn, err := grpc.NewClient(*addr,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithUnaryInterceptor(withDefaultTimeout(*timeout)))
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	lc := ledgerv1.NewLedgerServiceClient(conn)

	switch args[0] {
	case "post":
		if len(args) < 4 {
			log.Fatal("post ACCOUNT AMOUNT MEMO")
		}
		amount, err := strconv.ParseInt(args[2], 10, 64)
		if err != nil {
			log.Fatal(err)
		}
		resp, err := lc.Post(ctx, &ledgerv1.PostRequest{Account: args[1], AmountCents: amount, Memo: args[3]}) // OK
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(resp.GetEntryId())
	case "balance":
		resp, err := ledgerv1.LedgerServiceClient.Balance(lc, ctx, &ledgerv1.BalanceRequest{Account: args[1]}) // OK
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%d.%02d as of %s\n", resp.GetBalanceCents()/100, resp.GetBalanceCents()%100,
			time.Unix(resp.GetAsOfUnix(), 0).Format(time.RFC3339))
	case "resolve":
		resp, err := lc.ResolveGroup(ctx, &ledgerv1.ResolveGroupRequest{Group: args[1]}) // OK
		if err != nil {
			log.Fatal(err)
		}
		for _, a := range resp.GetAccounts() {
			fmt.Println(a)
		}
	case "history":
		st, err := lc.History(ctx, &ledgerv1.HistoryRequest{Account: args[1]}) // OK
		if err != nil {
			log.Fatal(err)
		}
		for {
			e, err := st.Recv()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				log.Fatal(err)
			}
			fmt.Println(e.GetId(), e.GetAmountCents(), e.GetMemo())
		}
	default:
		log.Fatalf("unknown command %q", args[0])
	}
}
