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
	desc, err := s.Describe(ctx, "1") // want `Service\.Describe calls RPC CatalogClient\.GetItem with no deadline \(ctx from context\.Background\(\)\); add one with context\.WithTimeout`
	log.Println(desc, err)

	log.Println(service.DescribeAll(context.Background(), s, []string{"1", "2"})) // want `service\.DescribeAll calls RPC CatalogClient\.GetItem with no deadline \(ctx from context\.Background\(\)\); add one with context\.WithTimeout`

	_, _ = c.Item(context.TODO(), "3") // want `Client\.Item calls RPC CatalogClient\.GetItem with no deadline \(ctx from context\.TODO\(\)\); add one with context\.WithTimeout`

	bounded, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	log.Println(s.Describe(bounded, "4"))
	log.Println(s.DescribeBounded(ctx, "5"))
	log.Println(c.BoundedItem(ctx, "6"))

	name, _ := client.Decode(context.Background(), c, "8", (*catalogpb.Item).GetName) // want `client\.Decode calls RPC CatalogClient\.GetItem with no deadline \(ctx from context\.Background\(\)\); add one with context\.WithTimeout`
	log.Println(name)

	describe := s.Describe
	_, _ = describe(context.TODO(), "9") // want `Service\.Describe calls RPC CatalogClient\.GetItem with no deadline \(ctx from context\.TODO\(\)\); add one with context\.WithTimeout`

	// Tag's body is in another package; its fact says it adds no deadline.
	_, _ = c.Item(client.Tag(context.Background()), "7") // want `Client\.Item calls RPC CatalogClient\.GetItem with no deadline \(ctx from context\.Background\(\)\); add one with context\.WithTimeout`
	_, _ = c.Item(client.Root(), "10")                   // want `Client\.Item calls RPC CatalogClient\.GetItem with no deadline \(ctx from context\.Background\(\) at .*/chain/client/client\.go:137\); add one with context\.WithTimeout`
	c.WarmTwice()                                        // want `Client\.WarmTwice calls RPC CatalogClient\.GetItem with context\.Background\(\), which has no deadline; it takes no ctx: call a variant that takes one \(or add it\) with a deadline`
}
