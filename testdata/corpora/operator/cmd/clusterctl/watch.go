package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	clusterv1 "example.test/operator/gen/cluster/v1"
)

// watch streams changes until ^C. The stream is long-lived by design and has
// no deadline; ^C ends the process.
func watch(c clusterv1.ClusterServiceClient, kinds []string) error {
	go func() {
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, os.Interrupt)
		<-sig
		os.Exit(130)
	}()
	stream, err := c.Watch(context.Background(), &clusterv1.WatchRequest{Kinds: kinds, SendInitial: true}) // OK: streaming call
	if err != nil {
		return err
	}
	for {
		ev, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		at := ev.GetObservedAt().AsTime().Local().Format(time.TimeOnly)
		switch obj := ev.GetObject().(type) {
		case *clusterv1.WatchEvent_Node:
			fmt.Printf("%s %-9s node/%s %s\n", at, ev.GetType(), obj.Node.GetName(), phase(obj.Node.GetPhase()))
		case *clusterv1.WatchEvent_Workload:
			fmt.Printf("%s %-9s workload/%s %d/%d\n", at, ev.GetType(), obj.Workload.GetName(), obj.Workload.GetReadyReplicas(), obj.Workload.GetReplicas())
		}
	}
}

func logs(ctx context.Context, c clusterv1.ClusterServiceClient, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("logs: node required")
	}
	unit := ""
	if len(args) > 1 {
		unit = args[1]
	}
	stream, err := c.WatchNodeLogs(ctx, &clusterv1.WatchNodeLogsRequest{Node: args[0], Unit: unit, Follow: true}) // OK: streaming call
	if err != nil {
		return err
	}
	for {
		l, err := stream.Recv()
		if errors.Is(err, io.EOF) || ctx.Err() != nil {
			return nil
		}
		if err != nil {
			return err
		}
		fmt.Println(l.GetText())
	}
}
