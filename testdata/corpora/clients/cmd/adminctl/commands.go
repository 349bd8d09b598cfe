package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"

	"google.golang.org/grpc/metadata"

	billingv1 "example.test/clients/gen/billing/v1"
	"example.test/clients/internal/ops"
)

func (a *app) invoiceGet(ctx context.Context, args []string) error {
	if len(args) != 1 {
		return errUsage
	}
	ctx, cancel := context.WithTimeout(ctx, a.budget(10*time.Second))
	defer cancel()
	inv, err := a.c.GetInvoice(ctx, args[0]) // OK
	if err != nil {
		return err
	}
	return a.print(inv)
}

func (a *app) invoiceList(ctx context.Context, args []string) error {
	if len(args) != 1 {
		return errUsage
	}
	n := 0
	err := a.c.ListInvoices(ctx, args[0], time.Time{}, func(inv *billingv1.Invoice) error { // OK
		n++
		_, err := fmt.Fprintf(a.out, "%s\t%s\t%d %s\n", inv.GetInvoiceId(), inv.GetStatus(), inv.GetAmountDueCents(), inv.GetCurrency())
		return err
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%d invoices\n", n)
	return nil
}

func (a *app) accountSuspend(ctx context.Context, args []string) error {
	if len(args) != 2 {
		return errUsage
	}
	res, err := ops.SuspendAccount(ctx, a.c, args[0], args[1])
	if res != nil {
		fmt.Fprintf(a.out, "account %s suspended, %d reservations released\n", res.AccountID, len(res.Released))
		for rid, ferr := range res.Failed {
			fmt.Fprintf(os.Stderr, "  %s: %v\n", rid, ferr)
		}
	}
	return err
}

func (a *app) itemGet(ctx context.Context, args []string) error {
	if len(args) != 1 {
		return errUsage
	}
	if a.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, a.timeout)
		defer cancel()
	}
	item, err := a.c.GetItem(ctx, args[0])
	if err != nil {
		return err
	}
	return a.print(item)
}

func (a *app) itemBatch(ctx context.Context, skus []string) error {
	if len(skus) == 0 {
		return errUsage
	}
	items, err := a.c.BatchGetItems(ctx, skus) // OK
	for _, sku := range skus {
		if it, ok := items[sku]; ok {
			fmt.Fprintf(a.out, "%s\t%d on hand\t%d reserved\t%s\n", sku, it.GetOnHand(), it.GetReserved(), it.GetWarehouse())
		}
	}
	return err
}

func (a *app) stockReserve(ctx context.Context, args []string) error {
	if len(args) != 3 {
		return errUsage
	}
	qty, err := strconv.ParseInt(args[1], 10, 64)
	if err != nil || qty <= 0 {
		return fmt.Errorf("bad quantity %q", args[1])
	}
	r, err := a.c.ReserveStock(ctx, args[0], qty, args[2]) // OK
	if err != nil {
		return err
	}
	return a.print(r)
}

func (a *app) stockRestock(ctx context.Context, args []string) error {
	if len(args) != 1 {
		return errUsage
	}
	f, err := os.Open(args[0])
	if err != nil {
		return err
	}
	defer f.Close()
	ctx, cancel := context.WithTimeout(ctx, a.budget(5*time.Minute))
	defer cancel()
	n, err := ops.RestockFromCSV(ctx, a.c, f) // OK
	fmt.Fprintf(a.out, "%d rows applied\n", n)
	return err
}

func (a *app) chargeRefund(ctx context.Context, args []string) error {
	if len(args) != 3 {
		return errUsage
	}
	amount, err := strconv.ParseInt(args[1], 10, 64)
	if err != nil || amount <= 0 {
		return fmt.Errorf("bad amount %q", args[1])
	}
	return ops.Refund(ctx, a.c, args[0], amount, args[2]) // OK
}

func (a *app) jobsRequeue(ctx context.Context, leases []string) error {
	if len(leases) == 0 {
		return errUsage
	}
	ctx = metadata.AppendToOutgoingContext(ctx, "x-actor", a.actor)
	cause := errors.New("requeued by " + a.actor)
	var failed int
	for _, id := range leases {
		if err := a.c.Nack(ctx, id, 0, cause); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", id, err)
			failed++
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d leases not requeued", failed, len(leases))
	}
	return nil
}
