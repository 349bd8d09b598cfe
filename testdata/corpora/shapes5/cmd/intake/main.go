// Command intake consumes the specimen-arrival queue: every message is a tube
// scanned at a collection site, a recall, or an operator's request. intake
// confirms the tube's order, queues it on an analyzer slot, files the insurer
// claim and re-queues the orders of recalled tubes. Each message is handled on
// its own budget.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"

	bookingv1 "example.test/shapes5/gen/booking/v1"
	paymentv1 "example.test/shapes5/gen/payment/v1"
	"example.test/shapes5/internal/clientx"
	"example.test/shapes5/internal/labsdk"
)

type arrival struct {
	Kind    string
	Order   string
	Slot    string
	Patient string
	Op      string
}

// filer files an insurer claim for an order.
type filer interface {
	File(ctx context.Context, order string) error
}

type grpcFiler struct {
	c paymentv1.PaymentServiceClient
}

func (g *grpcFiler) File(ctx context.Context, order string) error {
	_, err := g.c.Authorize(ctx, &paymentv1.PaymentRequest{BookingId: order})
	return err
}

// dryRunFiler only records the claims it would file; -dry-run uses it.
type dryRunFiler struct {
	mu    sync.Mutex
	filed []string
}

func (d *dryRunFiler) File(_ context.Context, order string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.filed = append(d.filed, order)
	return nil
}

// slotBooker queues an order's tube on an analyzer slot.
type slotBooker interface {
	Reserve(ctx context.Context, order, slot string) error
}

type boundedBooker struct {
	c      bookingv1.BookingServiceClient
	budget time.Duration
}

func (b *boundedBooker) Reserve(ctx context.Context, order, slot string) error {
	ctx, cancel := context.WithTimeout(ctx, b.budget)
	defer cancel()
	_, err := b.c.HoldSeat(ctx, &bookingv1.BookingRequest{BookingId: order, SeatId: slot})
	return err
}

type worker struct {
	*labsdk.Client
	orders bookingv1.BookingServiceClient
	filer  filer
	slots  slotBooker
}

func main() {
	ordersAddr := flag.String("orders", "labd.internal:8443", "lab order service")
	claimsAddr := flag.String("claims", "claims.internal:443", "insurer claims service")
	dryRun := flag.Bool("dry-run", false, "record claims instead of filing them")
	flag.Parse()

	conn, err := clientx.DialPlain(*ordersAddr)
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	pconn, err := clientx.DialPlain(*claimsAddr)
	if err != nil {
		log.Fatal(err)
	}
	defer pconn.Close()

	var f filer = &grpcFiler{c: paymentv1.NewPaymentServiceClient(pconn)}
	if *dryRun {
		f = &dryRunFiler{}
	}
	orders := bookingv1.NewBookingServiceClient(conn)
	w := &worker{
		Client: labsdk.New(conn),
		orders: orders,
		filer:  f,
		slots:  &boundedBooker{c: orders, budget: 3 * time.Second},
	}

	arrivals := make(chan arrival)
	go readQueue(arrivals)
	for a := range arrivals {
		if err := w.handle(a); err != nil {
			log.Printf("%s %s: %v", a.Kind, a.Order, err)
		}
	}
}

// readQueue reads one message a line from the spool on stdin.
func readQueue(out chan<- arrival) {
	defer close(out)
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		for len(f) < 5 {
			f = append(f, "")
		}
		out <- arrival{Kind: f[0], Order: f[1], Slot: f[2], Patient: f[3], Op: f[4]}
	}
}

func (w *worker) handle(a arrival) error {
	switch a.Kind {
	case "scan":
		return w.confirmArrival(a)
	case "cancel":
		return w.cancelOrder(a)
	case "patient":
		return w.reviewPatient(a)
	case "claim":
		return w.fileClaim(a)
	case "slot":
		return w.reserveSlot(a)
	case "op":
		return w.dispatch(a)
	case "status":
		return w.status(a)
	case "recall":
		return w.recall(a)
	case "requeue":
		return w.requeue(a)
	}
	return fmt.Errorf("unknown message kind %q", a.Kind)
}

// confirmArrival accessions the order of a scanned tube.
func (w *worker) confirmArrival(a arrival) error {
	ctx := context.Background()
	return w.Confirm(ctx, a.Order) // BUG: missingdeadline
}

// cancelOrder cancels an order the collection site withdrew.
func (w *worker) cancelOrder(a arrival) error {
	return w.Cancel(context.Background(), a.Order) // OK: the SDK's Cancel puts a deadline on its call
}

// reviewPatient logs how many of a patient's orders are still open.
func (w *worker) reviewPatient(a arrival) error {
	ctx := context.TODO()
	open := 0
	for b, err := range w.Pending(ctx, a.Patient) { // BUG: missingdeadline
		if err != nil {
			return err
		}
		if b.GetState() != "resulted" {
			open++
		}
	}
	log.Printf("patient %s: %d open orders", a.Patient, open)
	return nil
}

// fileClaim files the insurer claim of an accessioned order.
func (w *worker) fileClaim(a arrival) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	return w.filer.File(ctx, a.Order) // BUG: missingdeadline
}

// reserveSlot queues a tube on the slot the site asked for.
func (w *worker) reserveSlot(a arrival) error {
	return w.slots.Reserve(context.Background(), a.Order, a.Slot) // OK: the only slotBooker adds a deadline of its own
}

type bookingRPC func(context.Context, *bookingv1.BookingRequest, ...grpc.CallOption) (*bookingv1.Booking, error)

// dispatch runs an operator's slot request.
func (w *worker) dispatch(a arrival) error {
	ops := map[string]bookingRPC{
		"hold":    w.orders.HoldSeat,
		"release": w.orders.ReleaseHold,
		"extend":  w.orders.ExtendHold,
	}
	op, ok := ops[a.Op]
	if !ok {
		return fmt.Errorf("unknown op %q", a.Op)
	}
	ctx := context.Background()
	_, err := op(ctx, &bookingv1.BookingRequest{BookingId: a.Order, SeatId: a.Slot}) // BUG: missingdeadline
	return err
}

// status answers an operator's status request.
func (w *worker) status(a arrival) error {
	ops := map[string]bookingRPC{
		"get":   w.orders.GetBooking,
		"quote": w.orders.QuotePrice,
	}
	op, ok := ops[a.Op]
	if !ok {
		return fmt.Errorf("unknown status op %q", a.Op)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Second)
	defer cancel()
	b, err := op(ctx, &bookingv1.BookingRequest{BookingId: a.Order}) // OK: the command table is called with a deadline
	if err != nil {
		return err
	}
	log.Printf("order %s: %s", b.GetId(), b.GetState())
	return nil
}

func (w *worker) retractor(order string) func(context.Context) error {
	return func(ctx context.Context) error {
		_, err := w.orders.CancelBooking(ctx, &bookingv1.BookingRequest{BookingId: order})
		return err
	}
}

// recall withdraws the order of a recalled tube.
func (w *worker) recall(a arrival) error {
	retract := w.retractor(a.Order)
	log.Printf("recalling order %s", a.Order)
	return retract(context.Background()) // BUG: missingdeadline
}

func (w *worker) requeuer(order string) func(context.Context) error {
	return func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		_, err := w.orders.JoinWaitlist(ctx, &bookingv1.BookingRequest{BookingId: order})
		return err
	}
}

// requeue puts an order back on the STAT queue.
func (w *worker) requeue(a arrival) error {
	rq := w.requeuer(a.Order)
	return rq(context.Background()) // OK: the returned closure adds its own deadline
}
