// Command feedctl is the operators' and developers' client for the feed service.
//
//	feedctl [-addr host:port] subscribe TOPIC
//	feedctl publish TOPIC PAYLOAD...
//	feedctl describe TOPIC
//	feedctl bench TOPIC
//	feedctl relay-check BROKER
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
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	catalogv1 "example.test/streams/gen/catalog/v1"
	feedv1 "example.test/streams/gen/feed/v1"
	"example.test/streams/internal/budget"
	"example.test/streams/internal/relay"
)

var timeout = flag.Duration("timeout", 10*time.Second, "timeout of one-shot commands")

func main() {
	addr := flag.String("addr", "localhost:8443", "feedd gRPC address")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	conn, err := grpc.Dial(*addr,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithBlock(),
		grpc.WithTimeout(3000), // BUG: deadlinemath
	)
	if err != nil {
		log.Fatalf("feedctl: dial %s: %v", *addr, err)
	}
	defer conn.Close()
	feeds := feedv1.NewFeedServiceClient(conn)
	topics := catalogv1.NewCatalogServiceClient(conn)

	switch flag.Arg(0) {
	case "subscribe":
		err = subscribe(ctx, feeds, flag.Arg(1))
	case "publish":
		err = publish(ctx, feeds, flag.Arg(1), flag.Args()[2:])
	case "describe":
		err = describe(ctx, topics, flag.Arg(1))
	case "bench":
		err = bench(ctx, feeds, flag.Arg(1))
	case "relay-check":
		err = relayCheck(ctx, flag.Arg(1))
	default:
		flag.Usage()
		os.Exit(2)
	}
	if err != nil {
		log.Fatalf("feedctl: %s: %v", flag.Arg(0), err)
	}
}

func subscribe(ctx context.Context, client feedv1.FeedServiceClient, topic string) error {
	stream, err := client.Subscribe(ctx, &feedv1.SubscribeRequest{Topic: topic, Consumer: "feedctl"})
	if err != nil {
		return err
	}
	events := make(chan *feedv1.Event)
	errc := make(chan error, 1)
	go func() {
		for {
			ev, err := stream.Recv()
			if err != nil {
				errc <- err
				return
			}
			events <- ev
		}
	}()

	// Print a dot when nothing arrived for a while, so the operator knows we are alive.
	idle := time.NewTimer(0) // OK: zero, fires at once; Reset sets the real period
	for {
		select {
		case <-idle.C:
			fmt.Fprint(os.Stderr, ".")
			idle.Reset(5 * time.Second)
		case ev := <-events:
			fmt.Printf("%d %s %s\n", ev.GetSequence(), ev.GetTopic(), ev.GetPayload())
		case err := <-errc:
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

func publish(ctx context.Context, client feedv1.FeedServiceClient, topic string, payloads []string) error {
	ctx, cancel := context.WithTimeout(
		ctx,
		1500, // BUG: deadlinemath
	)
	defer cancel()
	stream, err := client.Publish(ctx)
	if err != nil {
		return err
	}
	for _, p := range payloads {
		if err := stream.Send(&feedv1.PublishRequest{Topic: topic, Payload: []byte(p)}); err != nil {
			return err
		}
	}
	sum, err := stream.CloseAndRecv()
	if err != nil {
		return err
	}
	fmt.Printf("accepted %d, last sequence %d\n", sum.GetAccepted(), sum.GetLastSequence())
	return nil
}

func describe(ctx context.Context, client catalogv1.CatalogServiceClient, name string) error {
	ctx, cancel := context.WithDeadline(ctx, time.Now().Add(300)) // BUG: deadlinemath
	defer cancel()
	d, err := client.DescribeTopic(ctx, &catalogv1.DescribeTopicRequest{Name: name})
	if err != nil {
		return err
	}
	t := d.GetTopic()
	fmt.Printf("%s: %d partitions, %dh retention, owner %s, %d consumers\n",
		t.GetName(), t.GetPartitions(), t.GetRetentionHours(), t.GetOwner(), d.GetSubscribers())
	return nil
}

// bench measures publish-to-receive latency, publishing every 5ms like the SDK's batcher.
func bench(ctx context.Context, client feedv1.FeedServiceClient, topic string) error {
	sub, err := client.Subscribe(ctx, &feedv1.SubscribeRequest{Topic: topic, Consumer: "feedctl-bench"})
	if err != nil {
		return err
	}
	pub, err := client.Publish(ctx)
	if err != nil {
		return err
	}
	const n = 1000
	start := time.Now()
	for i := range n {
		if err := pub.Send(&feedv1.PublishRequest{Topic: topic, Payload: []byte(fmt.Sprint(i))}); err != nil {
			return err
		}
		select {
		case <-time.After(5_000_000): // OK: 5_000_000ns is 5ms, not below a millisecond
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if _, err := pub.CloseAndRecv(); err != nil {
		return err
	}

	// Report the first progress line at once, then every second.
	report := time.NewTimer(time.Duration(1)) // OK: an explicit conversion says nanoseconds are meant
	defer report.Stop()
	for got := 0; got < n; {
		select {
		case <-report.C:
			fmt.Fprintf(os.Stderr, "%d/%d received after %s\n", got, n, time.Since(start))
			report.Reset(time.Second)
		default:
		}
		if _, err := sub.Recv(); err != nil {
			return err
		}
		got++
	}
	fmt.Printf("%d events in %s\n", n, time.Since(start))
	return nil
}

func relayCheck(ctx context.Context, broker string) error {
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	c, err := relay.Dial(ctx, broker, "feedctl")
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Ping(); err != nil {
		return err
	}
	if err := budget.Reserve(ctx, time.Second); err != nil {
		return err
	}
	fmt.Printf("broker %s ok, %s ms of budget left\n", broker, budget.Header(ctx))
	return nil
}
