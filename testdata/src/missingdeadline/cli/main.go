// Command cli is a command-line client of the catalog service: the basic positive and
// negative cases of missingdeadline.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"time"

	"example.com/gen/catalogpb"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
)

func main() {
	addr := flag.String("addr", "localhost:8080", "catalog address")
	id := flag.String("id", "", "item id")
	flag.Parse()

	conn, err := grpc.NewClient(*addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	client := catalogpb.NewCatalogClient(conn)

	ctx := context.Background()
	item, err := client.GetItem(ctx, &catalogpb.GetItemRequest{Id: *id}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\)\); add one with context\.WithTimeout`
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(item.GetName())

	tctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if _, err := client.GetItem(tctx, &catalogpb.GetItemRequest{Id: *id}); err != nil { // a deadline: fine
		log.Fatal(err)
	}
}

// cancelOnly can be cancelled but never times out.
func cancelOnly(client catalogpb.CatalogClient) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, _ = client.GetItem(ctx, &catalogpb.GetItemRequest{Id: "a"}) // want `RPC CatalogClient.GetItem has no deadline \(ctx from context.Background\(\)`
}

// interruptible stops on Ctrl-C, which is not a deadline.
func interruptible(client catalogpb.CatalogClient) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx = metadata.AppendToOutgoingContext(ctx, "x-client", "cli")
	_, err := client.GetItem(ctx, &catalogpb.GetItemRequest{Id: "b"}) // want `RPC CatalogClient.GetItem has no deadline \(ctx from context.Background\(\)`
	return err
}

// interruptibleBounded adds a timeout under the signal context: fine.
func interruptibleBounded(client catalogpb.CatalogClient) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	_, err := client.GetItem(ctx, &catalogpb.GetItemRequest{Id: "b"})
	return err
}

// todo uses TODO with outgoing metadata.
func todo(client catalogpb.CatalogClient) {
	ctx := metadata.NewOutgoingContext(context.TODO(), metadata.Pairs("k", "v"))
	_, _ = client.GetItem(ctx, &catalogpb.GetItemRequest{}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.TODO\(\)\); add one with context\.WithTimeout`
}

// retrySharedBudget retries within one overall deadline: fine.
func retrySharedBudget(client catalogpb.CatalogClient) (*catalogpb.Item, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var item *catalogpb.Item
		if item, err = client.GetItem(ctx, &catalogpb.GetItemRequest{Id: "r"}); err == nil {
			return item, nil
		}
	}
	return nil, err
}

// retryFreshBudget gives every attempt its own timeout: each call has a deadline, fine for
// this rule.
func retryFreshBudget(client catalogpb.CatalogClient) (*catalogpb.Item, error) {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		item, callErr := client.GetItem(ctx, &catalogpb.GetItemRequest{Id: "r"})
		cancel()
		if callErr == nil {
			return item, nil
		}
		err = callErr
	}
	return nil, err
}

// retryNoBudget retries forever with no deadline at all.
func retryNoBudget(client catalogpb.CatalogClient) *catalogpb.Item {
	ctx := context.Background()
	for {
		if item, err := client.GetItem(ctx, &catalogpb.GetItemRequest{Id: "r"}); err == nil { // want `RPC CatalogClient.GetItem`
			return item
		}
		time.Sleep(time.Second)
	}
}

// invoke calls a method by name on the connection.
func invoke(conn *grpc.ClientConn, cc grpc.ClientConnInterface) {
	in, out := &catalogpb.GetItemRequest{Id: "i"}, new(catalogpb.Item)
	_ = conn.Invoke(context.Background(), "/catalog.v1.Catalog/GetItem", in, out) // want `RPC ClientConn.Invoke has no deadline \(ctx from context.Background\(\)`
	_ = cc.Invoke(context.TODO(), "/catalog.v1.Catalog/GetItem", in, out)         // want `RPC ClientConnInterface.Invoke has no deadline \(ctx from context.TODO\(\)`

	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(time.Second))
	defer cancel()
	_ = cc.Invoke(ctx, "/catalog.v1.Catalog/GetItem", in, out)
}

// sometimes has a deadline on one path only: the other path is reported.
func sometimes(client catalogpb.CatalogClient, bounded bool) {
	ctx := context.Background()
	if bounded {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Second)
		defer cancel()
	}
	_, _ = client.GetItem(ctx, &catalogpb.GetItemRequest{}) // want `RPC CatalogClient.GetItem`
}

// suppressed documents why it may wait.
func suppressed(client catalogpb.CatalogClient) {
	//deadlinelint:ignore missingdeadline the admin tool waits for an operator-driven server
	_, _ = client.GetItem(context.Background(), &catalogpb.GetItemRequest{})
}

// traced wraps the call in an OpenTelemetry span: a span is no deadline.
func traced(client catalogpb.CatalogClient, tracer trace.Tracer) {
	ctx, span := tracer.Start(context.Background(), "cli.get")
	defer span.End()
	_, _ = client.GetItem(ctx, &catalogpb.GetItemRequest{}) // want `RPC CatalogClient.GetItem has no deadline \(ctx from context.Background\(\)`

	tctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	sctx, span2 := tracer.Start(tctx, "cli.get.bounded")
	defer span2.End()
	_, _ = client.GetItem(sctx, &catalogpb.GetItemRequest{}) // the deadline is kept under the span
}
