// Command tiersync recomputes the tiers of the members listed on stdin (one id
// per line). Used by support after bulk corrections.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	loyaltyv1 "example.test/legacy/gen/loyalty/v1"
)

// defaultDeadline gives every call without a deadline a fixed budget.
func defaultDeadline(d time.Duration) grpc.UnaryClientInterceptor {
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
	addr := flag.String("addr", "loyaltyd.internal:9090", "loyaltyd address")
	perCall := flag.Duration("per-call", 5*time.Second, "deadline of each call")
	flag.Parse()

	conn, err := grpc.NewClient(*addr,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithUnaryInterceptor(defaultDeadline(*perCall)),
	)
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	lc := loyaltyv1.NewLoyaltyServiceClient(conn)

	ctx := context.Background()
	sc := bufio.NewScanner(os.Stdin)
	var ok, failed int
	for sc.Scan() {
		id := strings.TrimSpace(sc.Text())
		if id == "" {
			continue
		}
		m, err := lc.RecalculateTier(ctx, &loyaltyv1.RecalculateTierRequest{MemberId: id}) // OK
		if err != nil {
			log.Printf("%s: %v", id, err)
			failed++
			continue
		}
		b, err := lc.GetBalance(ctx, &loyaltyv1.GetBalanceRequest{MemberId: id}) // OK
		if err != nil {
			log.Printf("%s: balance: %v", id, err)
		}
		fmt.Printf("%s\t%s\t%d\n", id, m.GetTier(), b.GetPoints())
		ok++
	}
	log.Printf("done: %d ok, %d failed", ok, failed)
}
