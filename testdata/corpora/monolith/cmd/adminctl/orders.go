package main

import (
	"context"
	"fmt"
	"strings"

	ordersv1 "example.test/monolith/gen/orders/v1"
)

func cmdOrders(cl *clients, args []string) error {
	if err := need(args, 1, "<account>"); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), cl.timeout) // OK
	defer cancel()
	resp, err := cl.orders.ListOrders(ctx, &ordersv1.ListOrdersRequest{AccountId: args[0], PageSize: 50}) // OK
	if err != nil {
		return err
	}
	for _, o := range resp.GetOrders() {
		fmt.Printf("%s\t%s\t%d %s\n", o.GetId(), o.GetStatus(), o.GetTotalMinor(), o.GetCurrency())
	}
	return nil
}

func cmdCancelOrder(cl *clients, args []string) error {
	if err := need(args, 1, "<id> [reason]"); err != nil {
		return err
	}
	reason := "cancelled by operator"
	if len(args) > 1 {
		reason = strings.Join(args[1:], " ")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if cl.timeout > 0 {
		var cancelTimeout context.CancelFunc
		ctx, cancelTimeout = context.WithTimeout(ctx, cl.timeout)
		defer cancelTimeout()
	}
	o, err := cl.orders.CancelOrder(ctx, &ordersv1.CancelOrderRequest{Id: args[0], Reason: reason}) // OK: the deadline is the user's -timeout flag, applied when set (precision issue)
	if err != nil {
		return err
	}
	fmt.Printf("%s\t%s\n", o.GetId(), o.GetStatus())
	return nil
}

func cmdShipment(cl *clients, args []string) error {
	if err := need(args, 1, "<id>"); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), cl.timeout) // OK
	defer cancel()
	sh, err := cl.ship.Get(ctx, args[0]) // OK
	if err != nil {
		return err
	}
	fmt.Printf("%s\t%s\t%s\t%s\n", sh.GetId(), sh.GetCarrier(), sh.GetStatus(), sh.GetTrackingCode())
	return nil
}

func cmdShipmentStatus(cl *clients, args []string) error {
	if err := need(args, 1, "<id> [-v]"); err != nil {
		return err
	}
	st, err := cl.ship.StatusOf(args[0]) // OK
	if err != nil {
		return err
	}
	fmt.Println(st)
	if len(args) > 1 && args[1] == "-v" {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		sh, err := cl.ship.Get(ctx, args[0]) // BUG: missingdeadline
		if err != nil {
			return err
		}
		fmt.Printf("carrier %s, tracking %s, order %s\n", sh.GetCarrier(), sh.GetTrackingCode(), sh.GetOrderId())
	}
	return nil
}
