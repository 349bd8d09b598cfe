// Command labctl is the lab staff's CLI for orders and benches:
//
//	labctl [-timeout d] VERB ORDER [ARGS...]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"time"

	"google.golang.org/grpc"

	bookingv1 "example.test/shapes5/gen/booking/v1"
	venuev1 "example.test/shapes5/gen/venue/v1"
	"example.test/shapes5/internal/clientx"
	"example.test/shapes5/internal/labsdk"
)

var (
	addr    = flag.String("addr", "labd.internal:8443", "lab order service")
	drAddr  = flag.String("dr", "labd-dr.internal:8443", "lab order service, DR site")
	timeout = flag.Duration("timeout", 0, "give up after this long (0: wait as long as it takes)")
)

type cli struct {
	orders    bookingv1.BookingServiceClient
	secondary bookingv1.BookingServiceClient
	bench     venuev1.VenueServiceClient
	sdk       *labsdk.Client
	out       io.Writer
}

func main() {
	flag.Parse()
	args := flag.Args()
	if len(args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: labctl [-timeout d] VERB ORDER [ARGS...]")
		os.Exit(2)
	}
	conn, err := clientx.DialPlain(*addr)
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	drConn, err := clientx.DialPlain(*drAddr)
	if err != nil {
		log.Fatal(err)
	}
	defer drConn.Close()
	c := &cli{
		orders:    bookingv1.NewBookingServiceClient(conn),
		secondary: bookingv1.NewBookingServiceClient(drConn),
		bench:     venuev1.NewVenueServiceClient(conn),
		sdk:       labsdk.New(conn),
		out:       os.Stdout,
	}
	verbs := map[string]func([]string) error{
		"hold":    c.hold,
		"extend":  c.extend,
		"show":    c.show,
		"cancel":  c.cancel,
		"split":   c.split,
		"merge":   c.merge,
		"release": c.release,
		"price":   c.price,
		"list":    c.list,
		"watch":   c.watch,
		"bench":   c.benchInfo,
	}
	run, ok := verbs[args[0]]
	if !ok {
		log.Fatalf("unknown verb %q", args[0])
	}
	if err := run(args[1:]); err != nil {
		log.Fatal(err)
	}
}

func arg(args []string, i int) string {
	if i < len(args) {
		return args[i]
	}
	return ""
}

func call[Req, Resp any](ctx context.Context, rpc func(context.Context, Req, ...grpc.CallOption) (Resp, error), req Req) (Resp, error) {
	resp, err := rpc(ctx, req)
	if err != nil {
		return resp, fmt.Errorf("rpc: %w", err)
	}
	return resp, nil
}

func (c *cli) hold(args []string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	b, err := call(ctx, c.orders.HoldSeat, &bookingv1.BookingRequest{BookingId: args[0], SeatId: arg(args, 1)}) // BUG: missingdeadline
	if err != nil {
		return err
	}
	fmt.Fprintf(c.out, "%s held on %s\n", b.GetId(), b.GetSeatId())
	return nil
}

func (c *cli) extend(args []string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	b, err := call(ctx, c.orders.ExtendHold, &bookingv1.BookingRequest{BookingId: args[0], SeatId: arg(args, 1), Count: 4}) // OK: a deadline
	if err != nil {
		return err
	}
	fmt.Fprintf(c.out, "%s held on %s\n", b.GetId(), b.GetSeatId())
	return nil
}

func (c *cli) show(args []string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	b, err := c.sdk.Order(ctx, args[0]) // BUG: missingdeadline
	if err != nil {
		return err
	}
	fmt.Fprintf(c.out, "%s patient=%s state=%s\n", b.GetId(), b.GetUserId(), b.GetState())
	return nil
}

func (c *cli) cancel(args []string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return c.sdk.Cancel(ctx, args[0]) // OK: the SDK's Cancel puts a deadline on its call
}

func splitter(orders bookingv1.BookingServiceClient) func(string, []string) func(context.Context) (*bookingv1.BookingList, error) {
	return func(order string, depts []string) func(context.Context) (*bookingv1.BookingList, error) {
		return func(ctx context.Context) (*bookingv1.BookingList, error) {
			return orders.SplitBooking(ctx, &bookingv1.BookingRequest{BookingId: order, Ids: depts})
		}
	}
}

func (c *cli) split(args []string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	list, err := splitter(c.orders)(args[0], args[1:])(ctx) // BUG: missingdeadline
	if err != nil {
		return err
	}
	for _, b := range list.GetBookings() {
		fmt.Fprintf(c.out, "%s -> %s\n", b.GetId(), b.GetEventId())
	}
	return nil
}

func merger(orders bookingv1.BookingServiceClient) func([]string) func(context.Context) (*bookingv1.Booking, error) {
	return func(ids []string) func(context.Context) (*bookingv1.Booking, error) {
		return func(ctx context.Context) (*bookingv1.Booking, error) {
			ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
			defer cancel()
			return orders.MergeBookings(ctx, &bookingv1.BookingRequest{Ids: ids})
		}
	}
}

func (c *cli) merge(args []string) error {
	ctx := context.Background()
	b, err := merger(c.orders)(args)(ctx) // OK: the inner literal adds a deadline
	if err != nil {
		return err
	}
	fmt.Fprintf(c.out, "merged into %s\n", b.GetId())
	return nil
}

func (c *cli) release(args []string) error {
	ctx := context.Background()
	req := &bookingv1.BookingRequest{BookingId: args[0], SeatId: arg(args, 1)}
	cl := c.orders
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		if _, err = cl.ReleaseHold(ctx, req); err == nil { // BUG: missingdeadline
			break
		}
		log.Printf("release on attempt %d: %v; trying the DR site", attempt+1, err)
		cl = c.secondary
	}
	return err
}

func (c *cli) price(args []string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	req := &bookingv1.BookingRequest{BookingId: args[0], PromoCode: arg(args, 1)}
	rpc := c.orders.QuotePrice
	if req.GetPromoCode() != "" {
		rpc = c.orders.ApplyPromo
	}
	b, err := rpc(ctx, req) // BUG: missingdeadline
	if err != nil {
		return err
	}
	fmt.Fprintf(c.out, "%s: %d.%02d\n", b.GetId(), b.GetPriceCents()/100, b.GetPriceCents()%100)
	return nil
}

func (c *cli) list(args []string) error {
	ctx := context.Background()
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	list, err := c.orders.ListBookings(ctx, &bookingv1.BookingRequest{UserId: args[0]}) // OK: a -timeout flag that defaults to none is the user's decision
	if err != nil {
		return err
	}
	for _, b := range list.GetBookings() {
		fmt.Fprintf(c.out, "%s %s\n", b.GetId(), b.GetState())
	}
	return nil
}

func (c *cli) watch(args []string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	stream, err := c.orders.WatchSeats(ctx, &bookingv1.BookingRequest{SeatId: args[0]}) // OK: a streaming call
	if err != nil {
		return err
	}
	for {
		ev, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(c.out, "%s %s\n", ev.GetSeatId(), ev.GetState())
	}
}

func (c *cli) benchInfo(args []string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	v, err := c.bench.GetVenue(ctx, &venuev1.VenueRequest{VenueId: args[0]}) // OK: a deadline
	if err != nil {
		return err
	}
	fmt.Fprintf(c.out, "%s %s (%d positions)\n", v.GetId(), v.GetName(), v.GetCapacity())
	return nil
}
