// Command cron runs the nightly booking jobs.
package main

import (
	"context"
	"flag"
	"iter"
	"log"
	"net/http"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/grpc"

	bookingv1 "example.test/shapes2/gen/booking/v1"
	notifyv1 "example.test/shapes2/gen/notify/v1"
	"example.test/shapes2/gen/notify/v1/notifyv1connect"
	paymentv1 "example.test/shapes2/gen/payment/v1"
	"example.test/shapes2/internal/clientx"
	"example.test/shapes2/internal/sdk"
)

type jobs struct {
	book   bookingv1.BookingServiceClient
	pay    paymentv1.PaymentServiceClient
	safe   bookingv1.BookingServiceClient // conn with a default deadline
	notify notifyv1connect.NotifyServiceClient
	conn   *grpc.ClientConn
	venues *sdk.Client
}

// forEach calls fn for every id with ctx.
func forEach(ctx context.Context, ids []string, fn func(context.Context, string) error) error {
	for _, id := range ids {
		if err := fn(ctx, id); err != nil {
			return err
		}
	}
	return nil
}

// call runs one unary RPC with ctx.
func call[Req, Resp any](ctx context.Context, rpc func(context.Context, Req, ...grpc.CallOption) (Resp, error), req Req) (Resp, error) {
	return rpc(ctx, req)
}

// refunder returns the refund step for one booking.
func (j *jobs) refunder(id string) func(context.Context) error {
	return func(ctx context.Context) error {
		_, err := j.pay.Refund(ctx, &paymentv1.PaymentRequest{BookingId: id})
		return err
	}
}

// holds yields the bookings of ids, each fetched with ctx.
func (j *jobs) holds(ctx context.Context, ids []string) iter.Seq[*bookingv1.Booking] {
	return func(yield func(*bookingv1.Booking) bool) {
		for _, id := range ids {
			b, err := j.book.GetBooking(ctx, &bookingv1.BookingRequest{BookingId: id})
			if err != nil || !yield(b) {
				return
			}
		}
	}
}

// expireHolds releases every expired hold through a callback.
func (j *jobs) expireHolds(ids []string) error {
	ctx := context.Background()
	return forEach(ctx, ids, func(ctx context.Context, id string) error { // BUG: missingdeadline
		_, err := j.book.ReleaseHold(ctx, &bookingv1.BookingRequest{BookingId: id})
		return err
	})
}

// expireHoldsBounded does the same within a minute.
func (j *jobs) expireHoldsBounded(ids []string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return forEach(ctx, ids, func(ctx context.Context, id string) error { // OK
		_, err := j.book.ReleaseHold(ctx, &bookingv1.BookingRequest{BookingId: id})
		return err
	})
}

// captureAll captures payments through a method value.
func (j *jobs) captureAll(ids []string) {
	capture := j.pay.Capture
	for _, id := range ids {
		if _, err := capture(context.Background(), &paymentv1.PaymentRequest{BookingId: id}); err != nil { // BUG: missingdeadline
			log.Print(err)
		}
	}
}

// captureAllBounded does the same, each call within ten seconds.
func (j *jobs) captureAllBounded(ids []string) {
	capture := j.pay.Capture
	for _, id := range ids {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if _, err := capture(ctx, &paymentv1.PaymentRequest{BookingId: id}); err != nil { // OK
			log.Print(err)
		}
		cancel()
	}
}

// voidStale voids through a method expression of the generated client.
func (j *jobs) voidStale(id string) error {
	void := paymentv1.PaymentServiceClient.Void
	_, err := void(j.pay, context.TODO(), &paymentv1.PaymentRequest{BookingId: id}) // BUG: missingdeadline
	return err
}

// voidStaleBounded does the same within five seconds.
func (j *jobs) voidStaleBounded(id string) error {
	void := paymentv1.PaymentServiceClient.Void
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := void(j.pay, ctx, &paymentv1.PaymentRequest{BookingId: id}) // OK
	return err
}

// refundCancelled runs the returned refund step.
func (j *jobs) refundCancelled(id string) error {
	run := j.refunder(id)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	return run(ctx) // BUG: missingdeadline
}

// refundCancelledBounded does the same within thirty seconds.
func (j *jobs) refundCancelledBounded(id string) error {
	run := j.refunder(id)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return run(ctx) // OK
}

// authorize goes through the generic helper.
func (j *jobs) authorize(id string) error {
	_, err := call(context.Background(), j.pay.Authorize, &paymentv1.PaymentRequest{BookingId: id}) // BUG: missingdeadline
	return err
}

// authorizeBounded does the same within five seconds.
func (j *jobs) authorizeBounded(id string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := call(ctx, j.pay.Authorize, &paymentv1.PaymentRequest{BookingId: id}) // OK
	return err
}

// retryCapture retries with a fresh context after the first attempt timed out.
func (j *jobs) retryCapture(id string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c := ctx
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if attempt > 0 {
			c = context.Background()
		}
		if _, err = j.pay.Capture(c, &paymentv1.PaymentRequest{BookingId: id}); err == nil { // BUG: missingdeadline
			return nil
		}
	}
	return err
}

// retryCaptureBounded gives every attempt its own deadline.
func (j *jobs) retryCaptureBounded(id string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err = j.pay.Capture(ctx, &paymentv1.PaymentRequest{BookingId: id}) // OK
		cancel()
		if err == nil {
			return nil
		}
	}
	return err
}

// reportHolds ranges over an iterator that fetches with the ctx it is given.
func (j *jobs) reportHolds(ids []string) int {
	n := 0
	for b := range j.holds(context.Background(), ids) { // BUG: missingdeadline
		if b.GetState() == "held" {
			n++
		}
	}
	return n
}

// reportHoldsBounded does the same within a minute.
func (j *jobs) reportHoldsBounded(ids []string) int {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	n := 0
	for range j.holds(ctx, ids) { // OK
		n++
	}
	return n
}

// mailTickets sends the day's tickets over connect.
func (j *jobs) mailTickets(ids []string) {
	for _, id := range ids {
		ctx := context.Background()
		if _, err := j.notify.SendTicket(ctx, connect.NewRequest(&notifyv1.TicketRequest{BookingId: id})); err != nil { // BUG: missingdeadline
			log.Print(err)
		}
	}
}

// rawLookup calls the booking service through Invoke.
func (j *jobs) rawLookup(id string) (*bookingv1.Booking, error) {
	out := new(bookingv1.Booking)
	err := j.conn.Invoke(context.Background(), bookingv1.BookingService_GetBooking_FullMethodName, &bookingv1.BookingRequest{BookingId: id}, out) // BUG: missingdeadline
	return out, err
}

// safeLookups go through a conn whose interceptor sets a default deadline.
func (j *jobs) safeLookups(ids []string) {
	for _, id := range ids {
		if _, err := j.safe.GetBooking(context.Background(), &bookingv1.BookingRequest{BookingId: id}); err != nil { // OK
			log.Print(err)
		}
	}
}

// exportAll streams every booking; streams are not unary calls.
func (j *jobs) exportAll() error {
	stream, err := j.book.ExportBookings(context.Background(), &bookingv1.BookingRequest{}) // OK
	if err != nil {
		return err
	}
	for {
		if _, err := stream.Recv(); err != nil {
			return nil
		}
	}
}

// table is the job table; each step calls one RPC with the ctx it is given.
type step struct {
	name string
	run  func(ctx context.Context, j *jobs) error
}

var table = []step{
	{"sweep", func(ctx context.Context, j *jobs) error {
		_, err := j.book.ReleaseExpired(ctx, &bookingv1.BookingRequest{})
		return err
	}},
	{"count", func(ctx context.Context, j *jobs) error {
		_, err := j.book.CountAvailable(ctx, &bookingv1.BookingRequest{})
		return err
	}},
}

func (j *jobs) runTable() {
	ctx := context.Background()
	for _, s := range table {
		if err := s.run(ctx, j); err != nil { // BUG: missingdeadline
			log.Printf("%s: %v", s.name, err)
		}
	}
}

func main() {
	timeout := flag.Duration("timeout", 0, "per-job timeout (0: none)")
	flag.Parse()

	conn, err := clientx.DialPlain("booking:443")
	if err != nil {
		log.Fatal(err)
	}
	safeConn, err := clientx.Dial("booking:443")
	if err != nil {
		log.Fatal(err)
	}
	payConn, err := clientx.DialPlain("payments:443")
	if err != nil {
		log.Fatal(err)
	}
	j := &jobs{
		book:   bookingv1.NewBookingServiceClient(conn),
		pay:    paymentv1.NewPaymentServiceClient(payConn),
		safe:   bookingv1.NewBookingServiceClient(safeConn),
		notify: notifyv1connect.NewNotifyServiceClient(http.DefaultClient, "http://notify:8081"),
		conn:   conn,
		venues: sdk.New(conn),
	}
	ids := flag.Args()

	ctx := context.Background()
	var cancel context.CancelFunc = func() {}
	if *timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, *timeout)
	}
	if _, err := j.book.ListBookings(ctx, &bookingv1.BookingRequest{Ids: ids}); err != nil { // OK
		log.Print(err)
	}
	cancel()

	if err := j.venues.Ping(); err != nil { // BUG: missingdeadline
		log.Print(err)
	}
	_ = j.expireHolds(ids)
	_ = j.expireHoldsBounded(ids)
	j.captureAll(ids)
	j.captureAllBounded(ids)
	for _, id := range ids {
		_ = j.voidStale(id)
		_ = j.voidStaleBounded(id)
		_ = j.refundCancelled(id)
		_ = j.refundCancelledBounded(id)
		_ = j.authorize(id)
		_ = j.authorizeBounded(id)
		_ = j.retryCapture(id)
		_ = j.retryCaptureBounded(id)
		_, _ = j.rawLookup(id)
	}
	log.Print(j.reportHolds(ids), j.reportHoldsBounded(ids))
	j.mailTickets(ids)
	j.safeLookups(ids)
	_ = j.exportAll()
	j.runTable()
}
