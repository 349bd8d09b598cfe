// Command nightly runs the nightly settlement of shuttle rides: it captures the fares of the
// day's completed rides, voids the abandoned holds, releases expired seats and mails the
// receipts. It runs from cron, one step after another.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/grpc"

	bookingv1 "example.test/shapes4/gen/booking/v1"
	notifyv1 "example.test/shapes4/gen/notify/v1"
	"example.test/shapes4/gen/notify/v1/notifyv1connect"
	paymentv1 "example.test/shapes4/gen/payment/v1"
	"example.test/shapes4/internal/clientx"
	"example.test/shapes4/internal/gx"
	"example.test/shapes4/internal/ridesdk"
)

type job struct {
	rides   bookingv1.BookingServiceClient
	bounded bookingv1.BookingServiceClient // over clientx.Dial: every unary call gets a default deadline
	pay     paymentv1.PaymentServiceClient
	conn    grpc.ClientConnInterface
	push    notifyv1connect.NotifyServiceClient
	sdk     *ridesdk.Client
	log     *slog.Logger
	trip    string
	ids     []string
	timeout time.Duration
}

func main() {
	ridesAddr := flag.String("rides", "dispatchd:7070", "booking service")
	payAddr := flag.String("payments", "payments:443", "fare provider")
	pushURL := flag.String("push", "http://dispatchd:7080", "notify service")
	trip := flag.String("trip", "", "only this trip")
	timeout := flag.Duration("timeout", 0, "per-call timeout for the receipt step (0: none)")
	flag.Parse()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))

	ridesConn, err := clientx.DialPlain(*ridesAddr)
	if err != nil {
		log.Error("dial", "err", err)
		os.Exit(1)
	}
	boundedConn, err := clientx.Dial(*ridesAddr, 10*time.Second)
	if err != nil {
		log.Error("dial", "err", err)
		os.Exit(1)
	}
	payConn, err := clientx.DialPlain(*payAddr)
	if err != nil {
		log.Error("dial", "err", err)
		os.Exit(1)
	}
	j := &job{
		rides:   bookingv1.NewBookingServiceClient(ridesConn),
		bounded: bookingv1.NewBookingServiceClient(boundedConn),
		pay:     paymentv1.NewPaymentServiceClient(payConn),
		conn:    ridesConn,
		push:    notifyv1connect.NewNotifyServiceClient(http.DefaultClient, *pushURL),
		sdk:     ridesdk.New(ridesConn),
		log:     log,
		trip:    *trip,
		ids:     flag.Args(),
		timeout: *timeout,
	}
	steps := []struct {
		name string
		run  func() error
	}{
		{"ping", j.ping},
		{"capture", j.captureCompleted},
		{"capture-retry", j.retryCapture},
		{"capture-late", j.captureLate},
		{"void", j.voidAbandoned},
		{"void-groups", j.voidGroups},
		{"release", j.releaseExpired},
		{"release-bounded", j.releaseBounded},
		{"report", j.reportHolds},
		{"report-bounded", j.reportBounded},
		{"lookup", j.rawLookup},
		{"lookup-bounded", j.rawLookupBounded},
		{"receipts", j.mailReceipts},
		{"receipts-flag", j.mailReceiptsFlagged},
		{"resend", j.resendFailed},
		{"resend-bounded", j.resendBounded},
		{"housekeeping", j.housekeeping},
		{"settlements", j.settlementFeed},
		{"count", j.countSeats},
		{"settle", j.settleTrip},
		{"settle-bounded", j.settleBounded},
		{"admin", j.adminOps},
		{"admin-bounded", j.adminOpsBounded},
	}
	for _, s := range steps {
		if err := s.run(); err != nil {
			log.Error("step failed", "step", s.name, "err", err)
		}
	}
}

// ping checks that the booking service is up before the night's work.
func (j *job) ping() error {
	if !j.sdk.Healthy() { // OK: Healthy wraps an unexported helper: a fix needs a new API, neither it nor its callers are reported
		return errors.New("booking service unhealthy")
	}
	return j.sdk.Ping() // BUG: missingdeadline
}

// captureCompleted captures the fare of every completed ride.
func (j *job) captureCompleted() error {
	ctx := context.Background()
	capture := j.pay.Capture
	for _, id := range j.ids {
		if _, err := capture(ctx, &paymentv1.PaymentRequest{BookingId: id}); err != nil { // BUG: missingdeadline
			return fmt.Errorf("capture %s: %w", id, err)
		}
	}
	return nil
}

// retryCapture captures the rides whose capture failed, once with a deadline and, for the
// last attempt, waiting as long as the provider needs.
func (j *job) retryCapture() error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if attempt == 2 {
			cancel()
			ctx, cancel = context.WithCancel(context.Background())
		}
		_, err = j.pay.Capture(ctx, &paymentv1.PaymentRequest{BookingId: j.trip}) // BUG: missingdeadline
		cancel()
		if err == nil {
			return nil
		}
	}
	return err
}

// captureLate captures the fares of late rides, each call bounded.
func (j *job) captureLate() error {
	capture := j.pay.Capture
	for _, id := range j.ids {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err := capture(ctx, &paymentv1.PaymentRequest{BookingId: id}) // OK: method value called with a deadline
		cancel()
		if err != nil {
			return err
		}
	}
	return nil
}

// voidAbandoned voids the authorisations of holds nobody confirmed.
func (j *job) voidAbandoned() error {
	void := paymentv1.PaymentServiceClient.Void
	for _, id := range j.ids {
		if _, err := void(j.pay, context.TODO(), &paymentv1.PaymentRequest{BookingId: id}); err != nil { // BUG: missingdeadline
			return err
		}
	}
	return nil
}

// voidGroups voids group bookings: voider builds, per provider client, the function that
// voids one booking.
func (j *job) voidGroups() error {
	voider := func(c paymentv1.PaymentServiceClient) func(context.Context, string) error {
		return func(ctx context.Context, id string) error {
			_, err := c.Void(ctx, &paymentv1.PaymentRequest{BookingId: id})
			return err
		}
	}
	bounded := func(c paymentv1.PaymentServiceClient) func(context.Context, string) error {
		return func(ctx context.Context, id string) error {
			ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			defer cancel()
			_, err := c.Void(ctx, &paymentv1.PaymentRequest{BookingId: "group/" + id})
			return err
		}
	}
	ctx := context.Background()
	if err := voider(j.pay)(ctx, j.trip); err != nil { // BUG: missingdeadline
		return err
	}
	for _, id := range j.ids {
		if err := bounded(j.pay)(ctx, id); err != nil { // OK: the inner literal bounds the call
			return err
		}
	}
	return nil
}

func (j *job) releaseOnce(ctx context.Context) (*bookingv1.BookingList, error) {
	return j.rides.ReleaseExpired(ctx, &bookingv1.BookingRequest{EventId: j.trip})
}

// releaseExpired releases the seats whose hold ran out.
func (j *job) releaseExpired() error {
	list, err := gx.Retry(context.Background(), 3, j.releaseOnce) // BUG: missingdeadline
	if err != nil {
		return err
	}
	j.log.Info("released", "n", list.GetTotal())
	return nil
}

// releaseBounded releases the seats of the listed trips, each within a minute.
func (j *job) releaseBounded() error {
	for _, trip := range j.ids {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		_, err := gx.Retry(ctx, 3, func(ctx context.Context) (*bookingv1.BookingList, error) { // OK: gx.Retry runs the literal with a ctx that has a deadline
			return j.rides.ReleaseExpired(ctx, &bookingv1.BookingRequest{EventId: trip})
		})
		cancel()
		if err != nil {
			return err
		}
	}
	return nil
}

// bookings yields the bookings of ids, each read with ctx.
func (j *job) bookings(ctx context.Context, ids []string) func(func(*bookingv1.Booking, error) bool) {
	return func(yield func(*bookingv1.Booking, error) bool) {
		for _, id := range ids {
			b, err := j.rides.GetBooking(ctx, &bookingv1.BookingRequest{BookingId: id})
			if !yield(b, err) {
				return
			}
		}
	}
}

// reportHolds logs the bookings still held at night.
func (j *job) reportHolds() error {
	ctx := context.Background()
	for b, err := range j.bookings(ctx, j.ids) { // BUG: missingdeadline
		if err != nil {
			return err
		}
		if b.GetState() == "held" {
			j.log.Info("still held", "booking", b.GetId(), "seat", b.GetSeatId())
		}
	}
	return nil
}

// reportBounded is reportHolds for one trip, in two minutes at most.
func (j *job) reportBounded() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for b, err := range j.bookings(ctx, j.ids) { // OK: the iterator's ctx has a deadline
		if err != nil {
			return err
		}
		j.log.Info("booking", "id", b.GetId(), "state", b.GetState())
	}
	return nil
}

// rawLookup reads one booking through the raw connection, for the audit trail of the raw
// wire format.
func (j *job) rawLookup() error {
	out := new(bookingv1.Booking)
	err := j.conn.Invoke(context.Background(), bookingv1.BookingService_GetBooking_FullMethodName, &bookingv1.BookingRequest{BookingId: j.trip}, out) // BUG: missingdeadline
	if err != nil {
		return err
	}
	j.log.Info("raw", "booking", out.GetId())
	return nil
}

// rawLookupBounded is rawLookup with a deadline.
func (j *job) rawLookupBounded() error {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	out := new(bookingv1.Booking)
	return j.conn.Invoke(ctx, bookingv1.BookingService_GetBooking_FullMethodName, &bookingv1.BookingRequest{BookingId: j.trip}, out) // OK: Invoke with a deadline
}

// mailReceipts asks the notify service to mail the receipt of every completed ride.
func (j *job) mailReceipts() error {
	ctx := context.Background()
	for _, id := range j.ids {
		if _, err := j.push.SendTicket(ctx, connect.NewRequest(&notifyv1.TicketRequest{BookingId: id})); err != nil { // BUG: missingdeadline
			return err
		}
	}
	return nil
}

// resender prepares resending the receipt of one booking.
func (j *job) resender(id string) func(context.Context) error {
	req := connect.NewRequest(&notifyv1.TicketRequest{BookingId: id})
	return func(ctx context.Context) error {
		_, err := j.push.Resend(ctx, req)
		return err
	}
}

// boundedResender is resender with a deadline of its own.
func (j *job) boundedResender(id string) func(context.Context) error {
	req := connect.NewRequest(&notifyv1.TicketRequest{BookingId: id})
	return func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		_, err := j.push.Resend(ctx, req)
		return err
	}
}

// resendFailed resends the receipts that bounced yesterday.
func (j *job) resendFailed() error {
	send := j.resender(j.trip)
	return send(context.Background()) // BUG: missingdeadline
}

// resendBounded resends one receipt within five seconds.
func (j *job) resendBounded() error {
	send := j.boundedResender(j.trip)
	return send(context.Background()) // OK: the returned closure adds its own deadline
}

// mailReceiptsFlagged resends receipts, bounded by -timeout when the operator set one.
func (j *job) mailReceiptsFlagged() error {
	ctx := context.Background()
	if j.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, j.timeout)
		defer cancel()
	}
	_, err := j.push.Resend(ctx, connect.NewRequest(&notifyv1.TicketRequest{BookingId: j.trip})) // OK: a -timeout flag that defaults to none is the user's decision
	return err
}

// housekeeping confirms leftover bookings through the connection with a default deadline,
// and tidies up after itself.
func (j *job) housekeeping() error {
	ctx := context.Background()
	defer func() {
		cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, _ = j.rides.ReleaseHold(cctx, &bookingv1.BookingRequest{BookingId: j.trip}) // OK: bounded call in a deferred literal
	}()
	for _, id := range j.ids {
		if _, err := j.bounded.ConfirmBooking(ctx, &bookingv1.BookingRequest{BookingId: id}); err != nil { // OK: the conn comes from clientx.Dial, whose interceptor sets a default deadline
			return err
		}
	}
	return nil
}

// settlementFeed follows the provider's settlement stream until it ends.
func (j *job) settlementFeed() error {
	stream, err := j.pay.StreamSettlements(context.Background(), &paymentv1.PaymentRequest{BookingId: j.trip}) // OK: a streaming call
	if err != nil {
		return err
	}
	for {
		res, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		j.log.Info("settled", "id", res.GetId(), "state", res.GetState())
	}
}

// countSeats logs the free seats of the trip.
func (j *job) countSeats() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	list, err := j.rides.CountAvailable(ctx, &bookingv1.BookingRequest{EventId: j.trip}) // OK: a deadline
	if err != nil {
		return err
	}
	j.log.Info("free seats", "trip", j.trip, "n", list.GetTotal())
	return nil
}

// settler settles one booking with the fare provider. It has a value receiver.
type settler struct {
	pay paymentv1.PaymentServiceClient
}

func (s settler) settle(ctx context.Context, id string) error {
	res, err := s.pay.Capture(ctx, &paymentv1.PaymentRequest{BookingId: id})
	if err != nil {
		return err
	}
	if res.GetState() != "captured" {
		return fmt.Errorf("settle %s: provider says %s", id, res.GetState())
	}
	return nil
}

// settleTrip settles the bookings of the trip through the method expression settler.settle.
func (j *job) settleTrip() error {
	settle := settler.settle
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, id := range j.ids {
		if err := settle(settler{pay: j.pay}, ctx, id); err != nil { // BUG: missingdeadline
			return err
		}
	}
	return nil
}

// settleBounded is settleTrip with a deadline per booking.
func (j *job) settleBounded() error {
	settle := settler.settle
	for _, id := range j.ids {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err := settle(settler{pay: j.pay}, ctx, id) // OK: a deadline
		cancel()
		if err != nil {
			return err
		}
	}
	return nil
}

type bookingOp func(context.Context, *bookingv1.BookingRequest, ...grpc.CallOption) (*bookingv1.Booking, error)

// adminOps runs the operations the on-call engineer queued for the night.
func (j *job) adminOps() error {
	ops := map[string]bookingOp{
		"void":   j.rides.VoidBooking,
		"refund": j.rides.RefundBooking,
		"cancel": j.rides.CancelBooking,
	}
	ctx := context.Background()
	for _, name := range []string{"void", "refund", "cancel"} {
		if _, err := ops[name](ctx, &bookingv1.BookingRequest{EventId: j.trip}); err != nil { // BUG: missingdeadline
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}

// adminOpsBounded is adminOps with a deadline per operation.
func (j *job) adminOpsBounded() error {
	ops := map[string]bookingOp{
		"extend": j.rides.ExtendHold,
		"check":  j.rides.CheckIn,
	}
	for name, op := range ops {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err := op(ctx, &bookingv1.BookingRequest{EventId: j.trip}) // OK: a deadline
		cancel()
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}
