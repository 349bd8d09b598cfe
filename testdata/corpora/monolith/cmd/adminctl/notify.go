package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
)

func cmdNotify(cl *clients, args []string) error {
	if err := need(args, 2, "<account> <template> [k=v...]"); err != nil {
		return err
	}
	vars, err := parseVars(args[2:])
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	id, err := cl.notify.Send(ctx, args[0], args[1], vars) // BUG: missingdeadline
	if err != nil {
		return err
	}
	fmt.Println(id)
	return nil
}

func cmdWatch(cl *clients, args []string) error {
	if err := need(args, 1, "<account>"); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt) // OK
	defer stop()
	stream, err := cl.notify.Subscribe(ctx, args[0]) // OK
	if err != nil {
		return err
	}
	defer stream.Close()
	for stream.Receive() {
		n := stream.Msg()
		fmt.Printf("%d\t%s\t%s\n", n.GetAtUnix(), n.GetTitle(), n.GetBody())
	}
	return stream.Err()
}
