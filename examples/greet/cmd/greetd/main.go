// Command greetd serves the greet service over HTTP with connect-go.
package main

import (
	"context"
	"errors"
	"flag"
	"log"
	"net/http"
	"os"
	"os/signal"
	"time"

	"github.com/deadlinelint/deadlinelint/examples/greet"
	"github.com/deadlinelint/deadlinelint/examples/greet/greetv1/greetv1connect"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8090", "listen on this `address`")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	mux := http.NewServeMux()
	mux.Handle(greetv1connect.NewGreetServiceHandler(greet.NewServer(greet.NewMemoryVisits())))
	hs := &http.Server{Addr: *addr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		<-ctx.Done()
		// The request contexts are gone by now: shutdown gets a budget of its own.
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := hs.Shutdown(sctx); err != nil {
			log.Printf("greetd: shutdown: %v", err)
		}
	}()
	log.Printf("greetd: serving on %s", *addr)
	if err := hs.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
		log.Printf("greetd: %v", err)
		stop()
		os.Exit(1)
	}
	<-stopped
}
