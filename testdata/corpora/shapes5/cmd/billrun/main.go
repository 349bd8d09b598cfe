// Command billrun is the nightly claims run: it captures the insurer claims of
// the day's resulted orders, voids and refunds the cancelled ones, mails the
// result reports and reconciles the claims against the order service. It
// runs from cron; each step decides its own budget.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"iter"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/grpc"

	bookingv1 "example.test/shapes5/gen/booking/v1"
	notifyv1 "example.test/shapes5/gen/notify/v1"
	"example.test/shapes5/gen/notify/v1/notifyv1connect"
	paymentv1 "example.test/shapes5/gen/payment/v1"
	"example.test/shapes5/internal/batch"
	"example.test/shapes5/internal/clientx"
	"example.test/shapes5/internal/labsdk"
	"example.test/shapes5/internal/retryx"
)

type job struct {
	claims     paymentv1.PaymentServiceClient
	orders     bookingv1.BookingServiceClient
	cc         grpc.ClientConnInterface
	notify     notifyv1connect.NotifyServiceClient
	sdk        *labsdk.Client
	ordersAddr string

	lists map[string][]string
}

func main() {
	claimsAddr := flag.String("claims", "claims.internal:443", "insurer claims service")
	ordersAddr := flag.String("orders", "labd.internal:8443", "lab order service")
	notifyURL := flag.String("notify", "http://labd.internal:8080", "notification service")
	dir := flag.String("lists", "/var/lib/billrun", "directory of the day's id lists")
	flag.Parse()

	cconn, err := clientx.DialPlain(*claimsAddr)
	if err != nil {
		log.Fatal(err)
	}
	defer cconn.Close()
	oconn, err := clientx.DialPlain(*ordersAddr)
	if err != nil {
		log.Fatal(err)
	}
	defer oconn.Close()

	j := &job{
		claims:     paymentv1.NewPaymentServiceClient(cconn),
		orders:     bookingv1.NewBookingServiceClient(oconn),
		cc:         oconn,
		notify:     notifyv1connect.NewNotifyServiceClient(http.DefaultClient, *notifyURL),
		sdk:        labsdk.New(oconn),
		ordersAddr: *ordersAddr,
		lists:      loadLists(*dir),
	}
	steps := []struct {
		name string
		run  func() error
	}{
		{"ping", j.ping},
		{"capture", j.capture},
		{"capture-late", j.captureLate},
		{"void-cancelled", j.voidCancelled},
		{"reauthorize", j.reauthorize},
		{"refund-copays", j.refundCopays},
		{"authorize-new", j.authorizeNew},
		{"void-stale", j.voidStale},
		{"refund-rejected", j.refundRejected},
		{"authorize-retry", j.authorizeRetry},
		{"capture-retry", j.captureRetry},
		{"reconcile", j.reconcile},
		{"lookup-raw", j.lookupRaw},
		{"mail-reports", j.mailReports},
		{"count-open", j.countOpen},
		{"settlements", j.settlements},
	}
	failed := 0
	for _, s := range steps {
		start := time.Now()
		if err := s.run(); err != nil {
			log.Printf("%s: %v", s.name, err)
			failed++
			continue
		}
		log.Printf("%s: done in %s", s.name, time.Since(start))
	}
	if failed > 0 {
		os.Exit(1)
	}
}

func loadLists(dir string) map[string][]string {
	lists := make(map[string][]string)
	for _, kind := range []string{"resulted", "late", "cancelled", "revoked", "unrun", "placed", "stale", "rejected", "timed-out", "failed", "legacy"} {
		b, err := os.ReadFile(filepath.Join(dir, kind+".txt"))
		if err != nil {
			continue
		}
		lists[kind] = strings.Fields(string(b))
	}
	return lists
}

// ping checks the order service before the run starts.
func (j *job) ping() error {
	if !j.sdk.Healthy() { // OK: a convenience API over an unexported helper: neither it nor its callers are reported
		return errors.New("order service unhealthy")
	}
	return j.sdk.Ping() // BUG: missingdeadline
}

// capture captures the claims of the day's resulted orders.
func (j *job) capture() error {
	capture := j.claims.Capture
	ctx := context.Background()
	for _, id := range j.lists["resulted"] {
		if _, err := capture(ctx, &paymentv1.PaymentRequest{BookingId: id}); err != nil { // BUG: missingdeadline
			return err
		}
	}
	return nil
}

// captureLate captures the claims of orders resulted after the cut-off, five
// seconds each.
func (j *job) captureLate() error {
	capture := j.claims.Capture
	for _, id := range j.lists["late"] {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err := capture(ctx, &paymentv1.PaymentRequest{BookingId: id}) // OK: a deadline per call
		cancel()
		if err != nil {
			return err
		}
	}
	return nil
}

func call[C, Req, Resp any](ctx context.Context, c C, rpc func(C, context.Context, Req, ...grpc.CallOption) (Resp, error), req Req) (Resp, error) {
	return rpc(c, ctx, req)
}

// voidCancelled voids the claims of the day's cancelled orders.
func (j *job) voidCancelled() error {
	ctx := context.TODO()
	for _, id := range j.lists["cancelled"] {
		if _, err := call(ctx, j.claims, paymentv1.PaymentServiceClient.Void, &paymentv1.PaymentRequest{BookingId: id}); err != nil { // BUG: missingdeadline
			return err
		}
	}
	return nil
}

// reauthorize re-authorises the claims voided by mistake.
func (j *job) reauthorize() error {
	for _, id := range j.lists["revoked"] {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err := call(ctx, j.claims, paymentv1.PaymentServiceClient.Authorize, &paymentv1.PaymentRequest{BookingId: id}) // OK: a deadline per call
		cancel()
		if err != nil {
			return err
		}
	}
	return nil
}

// eachID runs fn for every id, logs the failures and goes on; it returns how
// many failed.
func eachID(ctx context.Context, ids []string, fn func(context.Context, string) error) int {
	failed := 0
	for _, id := range ids {
		if err := fn(ctx, id); err != nil {
			log.Printf("%s: %v", id, err)
			failed++
		}
	}
	return failed
}

// refundCopays refunds the copays of the orders the lab could not run, and
// the partial copays of the revoked ones.
func (j *job) refundCopays() error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	failed := eachID(ctx, j.lists["unrun"], func(ctx context.Context, id string) error { // BUG: missingdeadline
		_, err := j.claims.Refund(ctx, &paymentv1.PaymentRequest{BookingId: id})
		return err
	})
	tctx, tcancel := context.WithTimeout(ctx, 2*time.Minute)
	defer tcancel()
	failed += eachID(tctx, j.lists["revoked"], func(ctx context.Context, id string) error { // OK: the ctx handed to eachID has a deadline
		_, err := j.claims.Refund(ctx, &paymentv1.PaymentRequest{BookingId: id, AmountCents: 500})
		return err
	})
	if failed > 0 {
		return fmt.Errorf("%d refunds failed", failed)
	}
	return nil
}

func authorizeOne(ctx context.Context, c paymentv1.PaymentServiceClient, id string) error {
	_, err := c.Authorize(ctx, &paymentv1.PaymentRequest{BookingId: id})
	return err
}

func forClaims(ctx context.Context, c paymentv1.PaymentServiceClient, ids []string, fn func(context.Context, paymentv1.PaymentServiceClient, string) error) error {
	for _, id := range ids {
		if err := fn(ctx, c, id); err != nil {
			return fmt.Errorf("claim %s: %w", id, err)
		}
	}
	return nil
}

// authorizeNew authorises the claims of the orders placed today, then those
// of the late ones within two minutes.
func (j *job) authorizeNew() error {
	ctx := context.Background()
	if err := forClaims(ctx, j.claims, j.lists["placed"], authorizeOne); err != nil { // BUG: missingdeadline
		return err
	}
	tctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	return forClaims(tctx, j.claims, j.lists["late"], authorizeOne) // OK: the ctx handed on has a deadline
}

// sweep hands the ids to fn a hundred at a time.
func (j *job) sweep(ctx context.Context, ids []string, fn func(context.Context, string) error) error {
	for len(ids) > 0 {
		n := min(100, len(ids))
		if err := pageThrough(ctx, ids[:n], fn); err != nil {
			return err
		}
		ids = ids[n:]
	}
	return nil
}

func pageThrough(ctx context.Context, page []string, fn func(context.Context, string) error) error {
	for _, id := range page {
		if err := fn(ctx, id); err != nil {
			return err
		}
	}
	return nil
}

func (j *job) voidOne(ctx context.Context, id string) error {
	_, err := j.claims.Void(ctx, &paymentv1.PaymentRequest{BookingId: id})
	return err
}

// voidStale voids the claims left open for more than a week.
func (j *job) voidStale() error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := j.sweep(ctx, j.lists["stale"], j.voidOne); err != nil { // BUG: missingdeadline
		return err
	}
	tctx, tcancel := context.WithTimeout(ctx, 5*time.Minute)
	defer tcancel()
	return j.sweep(tctx, j.lists["failed"], j.voidOne) // OK: the ctx handed on has a deadline
}

func (j *job) refundOne(ctx context.Context, id string) error {
	_, err := j.claims.Refund(ctx, &paymentv1.PaymentRequest{BookingId: id})
	return err
}

// refundRejected refunds the copays of the claims the insurer rejected.
func (j *job) refundRejected() error {
	ctx := context.Background()
	if err := batch.Chunked(ctx, j.lists["rejected"], 50, j.refundOne); err != nil { // BUG: missingdeadline
		return err
	}
	tctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	return batch.Each(tctx, j.lists["cancelled"], j.refundOne) // OK: the ctx handed to another package's runner has a deadline
}

// authorizeRetry re-sends the authorisations the insurer timed out on, then
// captures them.
func (j *job) authorizeRetry() error {
	ctx := context.Background()
	for _, id := range j.lists["timed-out"] {
		req := &paymentv1.PaymentRequest{BookingId: id}
		if _, err := retryx.Do(ctx, 3, func(c context.Context) (*paymentv1.PaymentResult, error) { // BUG: missingdeadline
			return j.claims.Authorize(c, req)
		}); err != nil {
			return err
		}
		tctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		_, err := retryx.Do(tctx, 3, func(c context.Context) (*paymentv1.PaymentResult, error) { // OK: the ctx Do hands on has a deadline
			return j.claims.Capture(c, req)
		})
		cancel()
		if err != nil {
			return err
		}
	}
	return nil
}

// captureRetry captures the claims whose first capture failed: two quick
// attempts, then one that waits as long as the insurer needs.
func (j *job) captureRetry() error {
	for _, id := range j.lists["failed"] {
		var err error
		for attempt := 0; attempt < 3; attempt++ {
			var c context.Context
			var cancel context.CancelFunc
			if attempt < 2 {
				c, cancel = context.WithTimeout(context.Background(), 3*time.Second)
			} else {
				c, cancel = context.WithCancel(context.Background())
			}
			_, err = j.claims.Capture(c, &paymentv1.PaymentRequest{BookingId: id}) // BUG: missingdeadline
			cancel()
			if err == nil {
				break
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// orderStates yields each order's state as the order service reports it.
func (j *job) orderStates(ctx context.Context, ids []string) iter.Seq2[string, string] {
	return func(yield func(string, string) bool) {
		for _, id := range ids {
			state := "unknown"
			if b, err := j.orders.GetBooking(ctx, &bookingv1.BookingRequest{BookingId: id}); err == nil {
				state = b.GetState()
			}
			if !yield(id, state) {
				return
			}
		}
	}
}

// reconcile checks that every captured claim belongs to a resulted order.
func (j *job) reconcile() error {
	ctx := context.Background()
	var bad []string
	for id, state := range j.orderStates(ctx, j.lists["resulted"]) { // BUG: missingdeadline
		if state != "resulted" {
			bad = append(bad, id)
		}
	}
	tctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for id, state := range j.orderStates(tctx, j.lists["late"]) { // OK: the iterator's ctx has a deadline
		if state != "resulted" {
			bad = append(bad, id)
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("claims without a resulted order: %v", bad)
	}
	return nil
}

// lookupRaw reads the legacy orders through the raw connection, for the
// auditors' report.
func (j *job) lookupRaw() error {
	ctx := context.Background()
	for _, id := range j.lists["legacy"] {
		out := new(bookingv1.Booking)
		if err := j.cc.Invoke(ctx, bookingv1.BookingService_GetBooking_FullMethodName, &bookingv1.BookingRequest{BookingId: id}, out); err != nil { // BUG: missingdeadline
			return err
		}
		tctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		list := new(bookingv1.BookingList)
		err := j.cc.Invoke(tctx, bookingv1.BookingService_ListBookings_FullMethodName, &bookingv1.BookingRequest{UserId: out.GetUserId()}, list) // OK: Invoke with a deadline
		cancel()
		if err != nil {
			return err
		}
	}
	return nil
}

// mailReports mails the day's result reports.
func (j *job) mailReports() error {
	ctx := context.Background()
	for _, id := range j.lists["resulted"] {
		if _, err := j.notify.SendTicket(ctx, connect.NewRequest(&notifyv1.TicketRequest{BookingId: id})); err != nil { // BUG: missingdeadline
			return err
		}
	}
	for _, id := range j.lists["late"] {
		tctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		_, err := j.notify.Resend(tctx, connect.NewRequest(&notifyv1.TicketRequest{BookingId: id})) // OK: the connect call has a deadline
		cancel()
		if err != nil {
			return err
		}
	}
	return nil
}

// countOpen logs how many orders are still open, over a connection whose
// interceptor sets a default deadline.
func (j *job) countOpen() error {
	conn, err := clientx.Dial(j.ordersAddr)
	if err != nil {
		return err
	}
	defer conn.Close()
	c := bookingv1.NewBookingServiceClient(conn)
	list, err := c.ListBookings(context.Background(), &bookingv1.BookingRequest{}) // OK: clientx.Dial's interceptor sets a default deadline
	if err != nil {
		return err
	}
	log.Printf("open orders: %d", list.GetTotal())
	return nil
}

// settlements follows the insurer's settlement feed until it ends.
func (j *job) settlements() error {
	stream, err := j.claims.StreamSettlements(context.Background(), &paymentv1.PaymentRequest{}) // OK: a streaming call
	if err != nil {
		return err
	}
	for {
		res, err := stream.Recv()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		log.Printf("settled %s: %s", res.GetId(), res.GetState())
	}
}
