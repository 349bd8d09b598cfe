// Command ticketd serves the booking, venue and notify services.
package main

import (
	"context"
	"database/sql"
	"log"
	"net"
	"net/http"
	"os/signal"
	"syscall"

	"google.golang.org/grpc"

	paymentv1 "example.test/shapes2/gen/payment/v1"
	"example.test/shapes2/internal/booking"
	"example.test/shapes2/internal/clientx"
	"example.test/shapes2/internal/interceptors"
	"example.test/shapes2/internal/lifecycle"
	"example.test/shapes2/internal/notify"
	"example.test/shapes2/internal/store"
	"example.test/shapes2/internal/venue"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM) // OK
	defer stop()
	lifecycle.Start(ctx)
	venue.Init(ctx)

	st := store.New()
	db, err := sql.Open("postgres", "postgres://localhost/tickets")
	if err != nil {
		log.Fatal(err)
	}
	payConn, err := clientx.DialPlain("payments:443")
	if err != nil {
		log.Fatal(err)
	}
	pay := paymentv1.NewPaymentServiceClient(payConn)

	lim := &interceptors.Limiter{}
	g := grpc.NewServer(
		grpc.ChainUnaryInterceptor(interceptors.Audit(st), interceptors.Throttle(lim), interceptors.ThrottleCtx(lim), interceptors.Record(st)),
		grpc.ChainStreamInterceptor(interceptors.StreamAudit(st), interceptors.StreamQuota(st)),
	)
	booking.New(ctx, st, db, pay).Register(g)
	venue.New(ctx, st, db).Register(g)

	mux := http.NewServeMux()
	mux.Handle(notify.Mount(st))
	go func() { _ = http.ListenAndServe(":8081", mux) }()

	lis, err := net.Listen("tcp", ":8080")
	if err != nil {
		log.Fatal(err)
	}
	go func() {
		<-ctx.Done()
		g.GracefulStop()
	}()
	if err := g.Serve(lis); err != nil {
		log.Fatal(err)
	}
}
