// schemadump prints the schema and the MySQL version of one tablet, then
// exits.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"example.test/sqlproxy/gen/tabletmanagerpb"
	"example.test/sqlproxy/tmclient"
)

func main() {
	tablet := flag.String("tablet", "localhost:15991", "tablet manager address")
	flag.Parse()

	tmc := tmclient.New(0)
	defer tmc.Close()
	if err := tmc.Ping(*tablet); err != nil { // BUG: missingdeadline — Ping is a convenience API whose RPC runs on context.Background(): its caller decides, and gives the one-shot tool no deadline
		log.Fatalf("tablet %s does not answer: %v", *tablet, err)
	}

	cc, err := grpc.NewClient(*tablet, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatal(err)
	}
	defer cc.Close()
	client := tabletmanagerpb.NewTabletManagerClient(cc)
	ctx := context.Background()
	resp, err := client.GetSchema(ctx, &tabletmanagerpb.GetSchemaRequest{Tables: flag.Args()}) // BUG: missingdeadline — one deadline-less ctx reaching two unary RPCs: reported at the first; a wedged tablet hangs the tool
	if err != nil {
		log.Fatal(err)
	}
	ver, err := client.ExecuteFetchAsDba(ctx, &tabletmanagerpb.ExecuteFetchRequest{Query: "SELECT @@version", MaxRows: 1})
	if err != nil {
		log.Fatal(err)
	}
	if rows := ver.GetRows(); len(rows) > 0 {
		fmt.Printf("-- MySQL %v\n", rows[0].GetValues())
	}
	for _, t := range resp.GetTables() {
		fmt.Printf("%s;\n\n", t.GetSchema())
	}
}
