// Command ledgerctl is a small admin client for ledgerd.
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

	"example.test/ledger/gen/ledgerpb"
	"example.test/ledger/gen/notifierpb"
)

func usage() {
	fmt.Fprintln(os.Stderr, `usage: ledgerctl [-addr host:port] [-timeout d] <command> [args]
commands:
  transfer <key> <from> <to> <amount> <currency>
  balance <account>
  list <account> [since]
  export <account> <month> <year>
  watch <account>...`)
	os.Exit(2)
}

func main() {
	addr := flag.String("addr", "localhost:9090", "ledgerd address")
	timeout := flag.Duration("timeout", 5*time.Second, "per-call timeout")
	flag.Usage = usage
	flag.Parse()
	if flag.NArg() < 1 {
		usage()
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	cc, err := grpc.NewClient(*addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		fmt.Fprintln(os.Stderr, "dial:", err)
		os.Exit(1)
	}
	defer cc.Close()
	lc := ledgerpb.NewLedgerClient(cc)

	args := flag.Args()[1:]
	switch flag.Arg(0) {
	case "transfer":
		err = transfer(ctx, lc, *timeout, args)
	case "balance":
		err = balance(lc, args)
	case "list":
		err = list(ctx, lc, *timeout, args)
	case "export":
		err = export(ctx, lc, *timeout, args)
	case "watch":
		err = watch(ctx, notifierpb.NewNotifierClient(cc), args)
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

func transfer(ctx context.Context, lc ledgerpb.LedgerClient, timeout time.Duration, args []string) error {
	if len(args) != 5 {
		usage()
	}
	amount, err := strconv.ParseInt(args[3], 10, 64)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	resp, err := lc.PostTransfer(ctx, &ledgerpb.PostTransferRequest{
		IdempotencyKey: args[0], FromAccount: args[1], ToAccount: args[2], AmountMinor: amount, Currency: args[4],
	})
	if err != nil {
		return err
	}
	fmt.Println(resp.GetTransferId(), resp.GetStatus())
	return nil
}

func balance(lc ledgerpb.LedgerClient, args []string) error {
	if len(args) != 1 {
		usage()
	}
	resp, err := lc.GetBalance(context.Background(), &ledgerpb.GetBalanceRequest{AccountId: args[0]}) // BUG: missingdeadline — B8: the CLI's balance call has no deadline; the other verbs use -timeout
	if err != nil {
		return err
	}
	fmt.Printf("%s %d %s\n", resp.GetAccountId(), resp.GetBalanceMinor(), resp.GetCurrency())
	return nil
}

func list(ctx context.Context, lc ledgerpb.LedgerClient, timeout time.Duration, args []string) error {
	if len(args) < 1 {
		usage()
	}
	var since int64
	if len(args) > 1 {
		since, _ = strconv.ParseInt(args[1], 10, 64)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	stream, err := lc.ListPostings(ctx, &ledgerpb.ListPostingsRequest{AccountId: args[0], SinceUnix: since})
	if err != nil {
		return err
	}
	for {
		p, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		fmt.Printf("%s\t%d\t%s\n", p.GetAccountId(), p.GetAmountMinor(), p.GetCurrency())
	}
}

func export(ctx context.Context, lc ledgerpb.LedgerClient, timeout time.Duration, args []string) error {
	if len(args) != 3 {
		usage()
	}
	month, _ := strconv.Atoi(args[1])
	year, _ := strconv.Atoi(args[2])
	return withTimeout(ctx, timeout, func(ctx context.Context) error {
		resp, err := lc.ExportStatement(ctx, &ledgerpb.ExportStatementRequest{AccountId: args[0], Month: int32(month), Year: int32(year)})
		if err != nil {
			return err
		}
		fmt.Println("queued", resp.GetStatementId())
		return nil
	})
}

func withTimeout(ctx context.Context, d time.Duration, fn func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	return fn(ctx)
}

// watch streams events until interrupted. It is interactive and open-ended
// by design, so it is bounded by Ctrl-C rather than a deadline.
func watch(ctx context.Context, nc notifierpb.NotifierClient, accounts []string) error {
	stream, err := nc.Watch(ctx)
	if err != nil {
		return err
	}
	for _, a := range accounts {
		if err := stream.Send(&notifierpb.Subscribe{AccountId: a}); err != nil {
			return err
		}
	}
	for {
		ev, err := stream.Recv()
		if err != nil {
			if errors.Is(err, io.EOF) || ctx.Err() != nil {
				return nil
			}
			return err
		}
		fmt.Printf("%s %s %d %s\n", ev.GetAccountId(), ev.GetKind(), ev.GetAmountMinor(),
			time.Unix(ev.GetAtUnix(), 0).Format(time.RFC3339))
	}
}
