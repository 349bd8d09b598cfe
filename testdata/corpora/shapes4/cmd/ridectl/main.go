// Command ridectl is the dispatchers' CLI for shuttle bookings.
//
//	ridectl [flags] VERB ARGS...
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	bookingv1 "example.test/shapes4/gen/booking/v1"
	"example.test/shapes4/internal/clientx"
	"example.test/shapes4/internal/ridesdk"
)

type cli struct {
	rides     bookingv1.BookingServiceClient
	primary   *grpc.ClientConn
	secondary *grpc.ClientConn
	sdk       *ridesdk.Client
	timeout   time.Duration
	force     bool
}

func main() {
	addr := flag.String("rides", "dispatchd:7070", "booking service")
	fallback := flag.String("rides-fallback", "dispatchd-b:7070", "booking service, second region")
	timeout := flag.Duration("timeout", 0, "per-command timeout for quote (0: none)")
	force := flag.Bool("force", false, "reprice even confirmed bookings")
	flag.Parse()
	if flag.NArg() < 2 {
		fmt.Fprintln(os.Stderr, "usage: ridectl VERB ID...")
		os.Exit(2)
	}
	primary, err := clientx.DialPlain(*addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	secondary, err := clientx.DialPlain(*fallback)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	c := &cli{
		rides:     bookingv1.NewBookingServiceClient(primary),
		primary:   primary,
		secondary: secondary,
		sdk:       ridesdk.New(primary),
		timeout:   *timeout,
		force:     *force,
	}
	verbs := map[string]func([]string) error{
		"hold":    c.hold,
		"reserve": c.reserve,
		"checkin": c.checkin,
		"show":    c.show,
		"show5":   c.showBounded,
		"cancel":  c.cancelRide,
		"reprice": c.reprice,
		"quote":   c.quote,
		"extend":  c.extend,
		"export":  c.export,
	}
	verb, ok := verbs[flag.Arg(0)]
	if !ok {
		fmt.Fprintf(os.Stderr, "unknown verb %q\n", flag.Arg(0))
		os.Exit(2)
	}
	if err := verb(flag.Args()[1:]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// call runs one unary RPC of the generated client with ctx.
func call[Req, Resp any](ctx context.Context, rpc func(context.Context, Req, ...grpc.CallOption) (Resp, error), req Req) (Resp, error) {
	return rpc(ctx, req)
}

func (c *cli) hold(args []string) error {
	ctx := context.Background()
	b, err := call(ctx, c.rides.HoldSeat, &bookingv1.BookingRequest{EventId: args[0], SeatId: args[1], UserId: args[2]}) // BUG: missingdeadline
	if err != nil {
		return err
	}
	fmt.Println(b.GetId())
	return nil
}

// reserve holds a seat through the SDK, as partners do.
func (c *cli) reserve(args []string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	b, err := c.sdk.Reserve(ctx, args[0], args[1], args[2]) // BUG: missingdeadline
	if err != nil {
		return err
	}
	fmt.Println(b.GetId())
	return nil
}

func (c *cli) checkin(args []string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	b, err := call(ctx, c.rides.CheckIn, &bookingv1.BookingRequest{BookingId: args[0], SeatId: args[1]}) // OK: the generic helper calls the RPC with a ctx that has a deadline
	if err != nil {
		return err
	}
	fmt.Println(b.GetState())
	return nil
}

func (c *cli) show(args []string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	b, err := c.sdk.Booking(ctx, args[0]) // BUG: missingdeadline
	if err != nil {
		return err
	}
	fmt.Printf("%s seat=%s rider=%s state=%s\n", b.GetId(), b.GetSeatId(), b.GetUserId(), b.GetState())
	return nil
}

func (c *cli) showBounded(args []string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	b, err := c.sdk.Booking(ctx, args[0]) // OK: the SDK wrapper is given a deadline
	if err != nil {
		return err
	}
	fmt.Println(b.GetState())
	return nil
}

// cancelRide cancels a booking on the primary region, or on the second one while the
// primary is unavailable.
func (c *cli) cancelRide(args []string) error {
	ctx := context.Background()
	conn := c.primary
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		_, err = bookingv1.NewBookingServiceClient(conn).CancelBooking(ctx, &bookingv1.BookingRequest{BookingId: args[0]}) // BUG: missingdeadline
		if status.Code(err) != codes.Unavailable {
			break
		}
		conn = c.secondary
	}
	return err
}

// reprice re-prices a booking; -force also re-prices the confirmed ones.
func (c *cli) reprice(args []string) error {
	op := c.rides.ExtendHold
	if c.force {
		op = c.rides.Reprice
	}
	b, err := op(context.Background(), &bookingv1.BookingRequest{BookingId: args[0]}) // BUG: missingdeadline
	if err != nil {
		return err
	}
	fmt.Println(b.GetPriceCents())
	return nil
}

func (c *cli) quote(args []string) error {
	ctx := context.Background()
	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	b, err := c.rides.QuotePrice(ctx, &bookingv1.BookingRequest{BookingId: args[0]}) // OK: a -timeout flag that defaults to none is the user's decision
	if err != nil {
		return err
	}
	fmt.Println(b.GetPriceCents())
	return nil
}

// extend extends the holds of the listed bookings; extender builds, per client, the function
// extending one hold within its own deadline.
func (c *cli) extend(args []string) error {
	extender := func(rc bookingv1.BookingServiceClient) func(context.Context, string) error {
		return func(ctx context.Context, id string) error {
			ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
			defer cancel()
			_, err := rc.ExtendHold(ctx, &bookingv1.BookingRequest{BookingId: id})
			return err
		}
	}
	ctx := context.Background()
	for _, id := range args {
		if err := extender(c.rides)(ctx, id); err != nil { // OK: the inner literal adds the deadline
			return err
		}
	}
	return nil
}

func (c *cli) export(args []string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	stream, err := c.rides.ExportBookings(ctx, &bookingv1.BookingRequest{EventId: args[0]}) // OK: a streaming call
	if err != nil {
		return err
	}
	for {
		b, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		fmt.Println(b.GetId(), b.GetState())
	}
}
