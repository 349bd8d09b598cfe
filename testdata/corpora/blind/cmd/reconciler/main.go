// Command reconciler runs the periodic consistency checks between orders
// and inventory.
package main

import (
	"context"
	"flag"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	ordersv1 "example.test/blind/gen/ordersv1"
	"example.test/blind/internal/clientx"
	"example.test/blind/internal/invclient"
	"example.test/blind/internal/jobs"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

var (
	invAddr    = flag.String("inventory", "localhost:8080", "inventory address")
	ordersAddr = flag.String("orders", "localhost:8080", "orders address")
	every      = flag.Duration("every", time.Minute, "run interval")
	skuList    = flag.String("skus", "", "comma-separated skus")
)

// withDefaultTimeout gives calls without a deadline one of d.
func withDefaultTimeout(d time.Duration) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if _, ok := ctx.Deadline(); !ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, d)
			defer cancel()
		}
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}

func main() {
	flag.Parse()
	log := slog.Default()
	creds := grpc.WithTransportCredentials(insecure.NewCredentials())

	ordersConn, err := grpc.NewClient(*ordersAddr, creds, grpc.WithUnaryInterceptor(withDefaultTimeout(3*time.Second)))
	if err != nil {
		log.Error("dial orders", "err", err)
		os.Exit(1)
	}
	orders := ordersv1.NewOrderServiceClient(ordersConn)

	rawConn, err := grpc.NewClient(*invAddr, creds)
	if err != nil {
		log.Error("dial inventory", "err", err)
		os.Exit(1)
	}
	r := &jobs.Reconciler{Inv: invclient.New(rawConn), Orders: ordersv1.NewOrderServiceClient(rawConn), Log: log}
	if err := r.Warmup(); err != nil { // BUG: missingdeadline
		log.Error("warmup", "err", err)
	}

	// health endpoint for the cron runner
	if resp, err := http.Get("http://localhost:9000/ready"); err == nil { // OK: not a request scope
		resp.Body.Close()
	}

	pingConn, err := clientx.Dial(*invAddr)
	if err != nil {
		log.Error("dial inventory", "err", err)
		os.Exit(1)
	}
	pinger := invclient.New(pingConn)
	if err := pinger.Ping(context.Background()); err != nil { // OK? conn from clientx.Dial has a default-deadline interceptor (another package)
		log.Error("ping", "err", err)
	}

	skus := strings.Split(*skuList, ",")
	root := context.Background() // OK: worker root
	t := time.NewTicker(*every)
	defer t.Stop()
	for range t.C {
		ctx, cancel := context.WithCancel(root)
		if err := r.Reconcile(ctx, skus); err != nil { // BUG: missingdeadline
			log.Error("reconcile", "err", err)
		}
		cancel()

		ctx, cancel = context.WithTimeout(root, time.Minute)
		if err := r.Reconcile(ctx, skus); err != nil { // OK
			log.Error("reconcile", "err", err)
		}
		cancel()

		if err := r.ReconcileBounded(root, skus); err != nil { // OK: bounded per call inside
			log.Error("reconcile bounded", "err", err)
		}

		if _, err := orders.CancelOrder(root, &ordersv1.CancelOrderRequest{Id: "stale", Reason: "cron"}); err != nil { // OK: conn has a default-deadline interceptor
			log.Error("cancel stale", "err", err)
		}

		if err := r.CancelStale(root, "stale-2"); err != nil { // OK: the same ctx, on the same path, as the finding at main.go:84, which lists this call (one finding per ctx, precision issue)
			log.Error("cancel stale", "err", err)
		}
		time.Sleep(time.Second) // OK: not a request scope
	}
	_ = pinger
}
