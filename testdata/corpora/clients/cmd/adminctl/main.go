// Command adminctl is the operator CLI for billing, inventory and the job
// queue.
//
//	adminctl [flags] invoice get INVOICE
//	adminctl [flags] invoice list ACCOUNT
//	adminctl [flags] account suspend ACCOUNT REASON
//	adminctl [flags] item get SKU
//	adminctl [flags] item batch SKU...
//	adminctl [flags] stock reserve SKU QTY ORDER
//	adminctl [flags] stock release RESERVATION
//	adminctl [flags] stock restock FILE.csv
//	adminctl [flags] charge refund CHARGE AMOUNT_CENTS REASON
//	adminctl [flags] jobs requeue LEASE...
//	adminctl [flags] agent ping HOST:PORT...
//	adminctl [flags] agent run HOST:PORT KIND [k=v...]
//	adminctl [flags] raw get-item SKU
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	inventoryv1 "example.test/clients/gen/inventory/v1"
	"example.test/clients/pkg/sdk"
)

var errUsage = errors.New("usage: adminctl [flags] NOUN VERB [ARGS]; see adminctl -h")

type app struct {
	c       *sdk.Client
	out     io.Writer
	timeout time.Duration
	actor   string
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "adminctl:", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("adminctl", flag.ContinueOnError)
	billingAddr := fs.String("billing", "dns:///billing.internal:8443", "billing service address")
	inventoryAddr := fs.String("inventory", "dns:///inventory.internal:8443", "inventory service address")
	jobsAddr := fs.String("jobs", "dns:///jobs.internal:8443", "job queue address")
	timeout := fs.Duration("timeout", 0, "deadline for the command (0: command default)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	rest := fs.Args()
	if len(rest) < 2 {
		return errUsage
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM) // OK
	defer stop()

	client, err := sdk.New(sdk.Config{
		BillingAddr:   *billingAddr,
		InventoryAddr: *inventoryAddr,
		JobsAddr:      *jobsAddr,
		UserAgent:     "adminctl/1.14",
	})
	if err != nil {
		return err
	}
	defer client.Close()

	a := &app{c: client, out: os.Stdout, timeout: *timeout, actor: os.Getenv("USER")}
	verbArgs := rest[2:]

	switch rest[0] + " " + rest[1] {
	case "invoice get":
		return a.invoiceGet(ctx, verbArgs) // OK
	case "invoice list":
		return a.invoiceList(ctx, verbArgs) // OK
	case "account suspend":
		return a.accountSuspend(ctx, verbArgs) // BUG: missingdeadline
	case "item get":
		return a.itemGet(ctx, verbArgs) // OK: the deadline is the user's -timeout flag, applied when set (precision issue)
	case "item batch":
		return a.itemBatch(ctx, verbArgs) // OK
	case "stock reserve":
		return a.stockReserve(ctx, verbArgs) // OK
	case "stock release":
		if len(verbArgs) != 1 {
			return errUsage
		}
		r, err := client.ReleaseStock(ctx, verbArgs[0]) // BUG: missingdeadline
		if err != nil {
			return err
		}
		return a.print(r)
	case "stock restock":
		return a.stockRestock(ctx, verbArgs) // OK
	case "charge refund":
		return a.chargeRefund(ctx, verbArgs) // OK
	case "jobs requeue":
		return a.jobsRequeue(ctx, verbArgs) // BUG: missingdeadline
	case "agent ping":
		return a.agentPing(ctx, verbArgs) // OK
	case "agent run":
		return a.agentRun(ctx, verbArgs) // BUG: missingdeadline
	case "raw get-item":
		if len(verbArgs) != 1 {
			return errUsage
		}
		item, err := sdk.Invoke[inventoryv1.Item](ctx, client.InventoryConn(), inventoryv1.InventoryService_GetItem_FullMethodName, &inventoryv1.GetItemRequest{Sku: verbArgs[0]}) // BUG: missingdeadline
		if err != nil {
			return err
		}
		return a.print(item)
	}
	return errUsage
}

// budget is the deadline of a command: -timeout when given, def otherwise.
func (a *app) budget(def time.Duration) time.Duration {
	if a.timeout > 0 {
		return a.timeout
	}
	return def
}

func (a *app) print(m proto.Message) error {
	b, err := protojson.MarshalOptions{Multiline: true, Indent: "  "}.Marshal(m)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(a.out, string(b))
	return err
}
