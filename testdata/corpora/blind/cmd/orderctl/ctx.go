package main

import (
	"context"
	"time"

	ordersv1 "example.test/blind/gen/ordersv1"
)

// cliContext is the context every one-shot command uses.
func cliContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 15*time.Second)
}

// bareContext is for commands that should never time out.
func bareContext() (context.Context, context.CancelFunc) {
	return context.WithCancel(context.Background())
}

func cmdGetTimed(client ordersv1.OrderServiceClient, id string) error {
	ctx, cancel := cliContext()
	defer cancel()
	_, err := client.GetOrder(ctx, &ordersv1.GetOrderRequest{Id: id}) // OK: cliContext has a timeout
	return err
}

func cmdGetBare(client ordersv1.OrderServiceClient, id string) error {
	ctx, cancel := bareContext()
	defer cancel()
	_, err := client.GetOrder(ctx, &ordersv1.GetOrderRequest{Id: id}) // BUG: missingdeadline
	return err
}

func cmdGetMany(client ordersv1.OrderServiceClient, ids []string) error {
	for _, id := range ids {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_, err := client.GetOrder(ctx, &ordersv1.GetOrderRequest{Id: id}) // OK
		cancel()
		if err != nil {
			return err
		}
	}
	return nil
}
