// Command dispatchd serves the job dispatcher (jobs.v1.JobService).
package main

import (
	"context"
	"database/sql"
	"flag"
	"log"
	"net"
	"os"
	"os/signal"
	"syscall"

	_ "github.com/lib/pq"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	invpb "example.test/shapes3/gen/inventory/v1"
	jobspb "example.test/shapes3/gen/jobs/v1"
	"example.test/shapes3/internal/dispatch"
)

func main() {
	listen := flag.String("listen", ":9090", "gRPC listen address")
	dsn := flag.String("db", "postgres:///dispatch?sslmode=disable", "primary database")
	replicaDSN := flag.String("replica", "", "read replica; empty for none")
	inventory := flag.String("inventory", "inventory:9090", "inventory service address")
	peer := flag.String("peer", "", "the other region's dispatcher; empty for none")
	localHold := flag.Bool("local-hold", false, "hold stock in our own tables")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	db, err := sql.Open("postgres", *dsn)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	if err := db.PingContext(ctx); err != nil {
		log.Fatalf("dispatchd: database: %v", err)
	}
	var replica *sql.DB
	if *replicaDSN != "" {
		if replica, err = sql.Open("postgres", *replicaDSN); err != nil {
			log.Fatal(err)
		}
		defer replica.Close()
	}

	invConn, err := grpc.NewClient(*inventory, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatal(err)
	}
	defer invConn.Close()
	var peerClient jobspb.JobServiceClient
	if *peer != "" {
		peerConn, err := grpc.NewClient(*peer, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			log.Fatal(err)
		}
		defer peerConn.Close()
		peerClient = jobspb.NewJobServiceClient(peerConn)
	}

	srv := dispatch.NewServer(ctx, dispatch.Deps{
		DB:        db,
		Replica:   replica,
		Inventory: invpb.NewInventoryServiceClient(invConn),
		Peer:      peerClient,
		Tenants:   []string{"default", "eu", "us"},
		LocalHold: *localHold,
	})
	defer srv.Close()
	go srv.Run()

	gs := grpc.NewServer()
	dispatch.Register(gs, srv)
	lis, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Fatal(err)
	}
	go func() {
		<-ctx.Done()
		gs.GracefulStop()
	}()
	log.Printf("dispatchd: listening on %s", *listen)
	if err := gs.Serve(lis); err != nil {
		log.Fatal(err)
	}
}
