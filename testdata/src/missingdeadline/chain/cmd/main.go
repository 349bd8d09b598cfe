// Command cmd is the edge: it supplies the ctx that travels through service and client,
// the third of three packages.
package main

import (
	"context"
	"log"
	"time"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"missingdeadline/chain/client"
	"missingdeadline/chain/service"
)

func main() {
	conn, err := grpc.NewClient("catalog:443", grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatal(err)
	}
	c := client.New(conn)
	s := service.New(c)

	ctx := context.Background()
	desc, err := s.Describe(ctx, "1") // want `Service.Describe is called with a ctx from context.Background\(\) that has no deadline and passes it to RPC CatalogClient.GetItem through Client.Item, which can wait forever; derive the ctx with context.WithTimeout`
	log.Println(desc, err)

	log.Println(service.DescribeAll(context.Background(), s, []string{"1", "2"})) // want `service.DescribeAll is called with a ctx from context.Background\(\) .* to RPC CatalogClient.GetItem through Client.Items → client.fetch`

	_, _ = c.Item(context.TODO(), "3") // want `Client.Item is called with a ctx from context.TODO\(\) that has no deadline and passes it to RPC CatalogClient.GetItem, which`

	bounded, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	log.Println(s.Describe(bounded, "4"))
	log.Println(s.DescribeBounded(ctx, "5"))
	log.Println(c.BoundedItem(ctx, "6"))

	name, _ := client.Decode(context.Background(), c, "8", (*catalogpb.Item).GetName) // want `client.Decode is called with a ctx from context.Background\(\) that has no deadline and passes it to RPC CatalogClient.GetItem through Client.Item`
	log.Println(name)

	describe := s.Describe
	_, _ = describe(context.TODO(), "9") // want `Service.Describe is called with a ctx from context.TODO\(\)`

	// Tag's body is in another package; its fact says it adds no deadline.
	_, _ = c.Item(client.Tag(context.Background()), "7") // want `Client.Item is called with a ctx from context.Background\(\) that has no deadline`
	_, _ = c.Item(client.Root(), "10")                   // want `Client.Item is called with a ctx from context.Background\(\) at .*/client.go:\d+ that has no deadline`
	c.WarmTwice()                                        // want `Client.WarmTwice takes no ctx and calls RPC CatalogClient.GetItem with context.Background\(\)`
}
