// Command runnerd serves jobs.v1.JobService.
package main

import (
	"context"
	"database/sql"
	"flag"
	"log"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	_ "github.com/lib/pq"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	invpb "example.test/dynamic/gen/inventory/v1"
	"example.test/dynamic/internal/runner"
)

func main() {
	listen := flag.String("listen", ":9000", "address to serve on")
	dsn := flag.String("dsn", "postgres://runner@localhost/runner?sslmode=disable", "Postgres DSN")
	replicaDSN := flag.String("replica-dsn", "", "Postgres DSN of the journal replica")
	inventory := flag.String("inventory", "localhost:9090", "inventory service address")
	shards := flag.String("shards", "a,b,c", "job shards")
	laneNames := flag.String("lanes", "default,retry,export,reindex", "queue lanes")
	tenants := flag.String("tenants", "acme,globex", "tenants")
	workers := flag.Int("workers", 4, "worker lanes")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM) // OK: main
	defer stop()

	db, err := sql.Open("postgres", *dsn)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	var replica *sql.DB
	if *replicaDSN != "" {
		if replica, err = sql.Open("postgres", *replicaDSN); err != nil {
			log.Fatal(err)
		}
		defer replica.Close()
	}

	conn, err := grpc.NewClient(*inventory, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	inv := invpb.NewInventoryServiceClient(conn)

	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	if _, err := inv.ListItems(pctx, &invpb.ListItemsRequest{PageSize: 1}); err != nil { // OK: start-up probe with a deadline
		log.Printf("inventory not reachable yet: %v", err)
	}
	cancel()

	srv := runner.NewServer(ctx, runner.Deps{
		DB:        db,
		Replica:   replica,
		Inventory: inv,
		Shards:    strings.Split(*shards, ","),
		Lanes:     strings.Split(*laneNames, ","),
		Tenants:   strings.Split(*tenants, ","),
		Workers:   *workers,
	})
	defer srv.Close()
	go srv.Run()

	gs := grpc.NewServer()
	runner.Register(gs, srv)
	lis, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Fatal(err)
	}
	go func() {
		<-ctx.Done()
		gs.GracefulStop()
	}()
	if err := gs.Serve(lis); err != nil {
		log.Fatal(err)
	}
}
