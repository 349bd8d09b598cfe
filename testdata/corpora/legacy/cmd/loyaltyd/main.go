// Command loyaltyd serves LoyaltyService and RewardsService on one port.
package main

import (
	"context"
	"flag"
	"log"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/reflection"

	loyaltyv1 "example.test/legacy/gen/loyalty/v1"
	rewardsv1 "example.test/legacy/gen/rewards/v1"
	"example.test/legacy/internal/db"
	"example.test/legacy/internal/helpers"
	"example.test/legacy/internal/rewards"
	"example.test/legacy/internal/server"
	"example.test/legacy/internal/util"
)

func main() {
	var (
		listen      = flag.String("listen", ":9090", "grpc listen address")
		dsn         = flag.String("dsn", os.Getenv("DATABASE_URL"), "postgres dsn")
		rewardsAddr = flag.String("rewards", "localhost:9090", "rewards service address (usually ourselves)")
	)
	flag.Parse()

	if err := db.Open(*dsn); err != nil {
		log.Fatalf("db: %v", err)
	}
	defer db.DB.Close()
	util.PingCache()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM) // OK
	defer stop()

	conn, err := grpc.NewClient(*rewardsAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatalf("rewards client: %v", err)
	}
	defer conn.Close()
	rc := rewardsv1.NewRewardsServiceClient(conn)
	helpers.SetRewardsClient(rc)

	srv := server.NewServer(db.DB, rc)
	defer srv.Close()
	go srv.ReconcileGrants(time.Minute) // OK

	g := grpc.NewServer(
		grpc.ChainUnaryInterceptor(server.UnaryInterceptor, server.Auth, server.RateLimit(50)),
		grpc.StreamInterceptor(server.StreamInterceptor),
	)
	loyaltyv1.RegisterLoyaltyServiceServer(g, srv)
	rewardsv1.RegisterRewardsServiceServer(g, rewards.New(db.DB))
	hs := health.NewServer()
	healthpb.RegisterHealthServer(g, hs)
	reflection.Register(g)

	lis, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Fatalf("listen: %v", err)
	}

	go func() {
		// the catalogue cache is cold after a deploy; warm it once the server is up
		time.Sleep(2 * time.Second) // OK
		wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		if _, err := rc.ListRewards(wctx, &rewardsv1.ListRewardsRequest{}); err != nil { // OK
			log.Printf("warm catalogue: %v", err)
		}
	}()

	go func() {
		<-ctx.Done()
		log.Printf("shutting down")
		hs.Shutdown()
		g.GracefulStop()
	}()

	log.Printf("loyaltyd listening on %s", *listen)
	if err := g.Serve(lis); err != nil {
		log.Fatalf("serve: %v", err)
	}
}
