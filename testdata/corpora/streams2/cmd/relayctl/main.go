// Command relayctl is the operators' tool: tail a topic, follow a table, read a user's inbox,
// and provision topics.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"strings"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/grpc"
	"google.golang.org/grpc/connectivity"
	"google.golang.org/grpc/credentials/insecure"

	catalogv1 "example.test/streams2/gen/catalog/v1"
	feedv1 "example.test/streams2/gen/feed/v1"
	notifyv1 "example.test/streams2/gen/notify/v1"
	"example.test/streams2/gen/notify/v1/notifyv1connect"
)

// dialTimeout bounds each command's connection set-up, in nanoseconds.
const dialTimeout = 5e9

// flushEvery is how long tail output is buffered, in ms.
const flushEvery = 100

var (
	addr      = flag.String("addr", "localhost:7070", "relay gRPC address")
	notifyURL = flag.String("notify", "http://localhost:7080", "relay notify address")
	timeout   = flag.Duration("timeout", 30*time.Second, "deadline of one-shot commands")
)

func main() {
	flag.Parse()
	if flag.NArg() < 1 {
		fmt.Fprintln(os.Stderr, "usage: relayctl [flags] tail TOPIC | inbox USER | create TOPIC OWNER")
		os.Exit(2)
	}
	ctx := context.Background()
	var err error
	switch flag.Arg(0) {
	case "tail":
		err = tail(ctx, flag.Arg(1))
	case "inbox":
		err = inbox(ctx, flag.Arg(1))
	case "create":
		err = create(ctx, flag.Arg(1), flag.Arg(2))
	default:
		err = fmt.Errorf("unknown command %q", flag.Arg(0))
	}
	if err != nil {
		log.Fatal(err)
	}
}

func dial(ctx context.Context) (*grpc.ClientConn, error) {
	ctx, cancel := context.WithTimeout(ctx, dialTimeout) // OK: 5e9 is nanoseconds on purpose
	defer cancel()
	conn, err := grpc.NewClient(*addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, err
	}
	conn.Connect()
	for s := conn.GetState(); s != connectivity.Ready; s = conn.GetState() {
		if !conn.WaitForStateChange(ctx, s) {
			conn.Close()
			return nil, fmt.Errorf("connect %s: %w", *addr, ctx.Err())
		}
	}
	return conn, nil
}

// tail prints a topic's events until interrupted, batching output so that a busy topic does not
// flood the terminal.
func tail(ctx context.Context, topic string) error {
	conn, err := dial(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	stream, err := feedv1.NewFeedServiceClient(conn).Subscribe(ctx, &feedv1.SubscribeRequest{Topic: topic})
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

	// Tell the operator when a topic is quiet, rather than leave an empty screen.
	select {
	case ev := <-events:
		printEvent(ev)
	case <-time.After(500): // BUG: deadlinemath
		fmt.Fprintln(os.Stderr, "(no events yet)")
	}

	var buf strings.Builder
	flush := time.NewTimer(flushEvery) // BUG: deadlinemath
	defer flush.Stop()
	for {
		select {
		case ev := <-events:
			fmt.Fprintf(&buf, "%d %s %q\n", ev.GetSequence(), ev.GetId(), ev.GetPayload())
		case <-flush.C:
			os.Stdout.WriteString(buf.String())
			buf.Reset()
			flush.Reset(flushEvery * time.Millisecond)
		case err := <-errc:
			os.Stdout.WriteString(buf.String())
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

func printEvent(ev *feedv1.Event) {
	fmt.Printf("%d %s %q\n", ev.GetSequence(), ev.GetId(), ev.GetPayload())
}

// inbox prints a user's latest notifications.
func inbox(ctx context.Context, user string) error {
	client := notifyv1connect.NewNotifyServiceClient(
		&http.Client{Timeout: 15}, // BUG: deadlinemath
		*notifyURL,
		connect.WithGRPC(),
	)
	ctx, cancel := context.WithTimeout(ctx, *timeout) // OK: a variable
	defer cancel()
	if dl, ok := ctx.Deadline(); ok {
		log.Printf("inbox: %s left", time.Until(dl).Round(time.Millisecond)) // OK: ok checked
	}
	res, err := client.ListInbox(ctx, connect.NewRequest(&notifyv1.ListInboxRequest{UserId: user, Limit: 20}))
	if err != nil {
		return err
	}
	for _, n := range res.Msg.GetNotifications() {
		fmt.Printf("%s [%s] %s\n", n.GetCreatedAt().AsTime().Format(time.DateTime), n.GetChannel(), n.GetTitle())
	}
	return nil
}

// create provisions a topic.
func create(ctx context.Context, name, owner string) error {
	conn, err := dial(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	t, err := catalogv1.NewCatalogServiceClient(conn).CreateTopic(ctx, &catalogv1.CreateTopicRequest{
		Name: name, Owner: owner, Partitions: 4, RetentionHours: 72,
	})
	if err != nil {
		return err
	}
	// Give the replicas a moment to pick the topic up before the operator starts publishing.
	time.Sleep(200) // OK: time.Sleep is not this rule
	fmt.Printf("created %s (%d partitions, owner %s)\n", t.GetName(), t.GetPartitions(), t.GetOwner())
	return nil
}
