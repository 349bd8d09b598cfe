// Command matcher matches ride requests to seats. It consumes three queues — hold requests,
// confirmations and cancellations — and calls the booking service for each message.
package main

import (
	"bufio"
	"context"
	"flag"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"sync"
	"time"

	bookingv1 "example.test/shapes4/gen/booking/v1"
	"example.test/shapes4/internal/clientx"
	"example.test/shapes4/internal/ridesdk"
)

type message struct {
	Kind, Trip, Seat, Rider, Booking string
}

// booker holds seats; grpcBooker is the only implementation.
type booker interface {
	Hold(ctx context.Context, trip, seat, rider string) (string, error)
}

// grpcBooker adapts the generated BookingService client to booker.
type grpcBooker struct {
	c bookingv1.BookingServiceClient
}

func (g grpcBooker) Hold(ctx context.Context, trip, seat, rider string) (string, error) {
	b, err := g.c.HoldSeat(ctx, &bookingv1.BookingRequest{EventId: trip, SeatId: seat, UserId: rider})
	if err != nil {
		return "", err
	}
	return b.GetId(), nil
}

// canceller cancels bookings; boundedCanceller is the only implementation.
type canceller interface {
	CancelRide(ctx context.Context, booking string) error
}

type boundedCanceller struct {
	c       bookingv1.BookingServiceClient
	timeout time.Duration
}

func (b boundedCanceller) CancelRide(ctx context.Context, booking string) error {
	ctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	_, err := b.c.CancelBooking(ctx, &bookingv1.BookingRequest{BookingId: booking})
	return err
}

// worker embeds the SDK client: Confirm, Cancel and Pending are promoted.
type worker struct {
	*ridesdk.Client
	book     booker
	cancel   canceller
	log      *slog.Logger
	holds    chan message
	confirms chan message
	cancels  chan message
	sweeps   chan string
	timeout  time.Duration
}

func main() {
	addr := flag.String("rides", "dispatchd:7070", "booking service")
	timeout := flag.Duration("timeout", 5*time.Second, "per-message timeout")
	flag.Parse()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))

	conn, err := clientx.DialPlain(*addr)
	if err != nil {
		log.Error("dial", "err", err)
		os.Exit(1)
	}
	rides := bookingv1.NewBookingServiceClient(conn)
	w := &worker{
		Client:   ridesdk.New(conn),
		book:     grpcBooker{c: rides},
		cancel:   boundedCanceller{c: rides, timeout: *timeout},
		log:      log,
		holds:    make(chan message, 64),
		confirms: make(chan message, 64),
		cancels:  make(chan message, 64),
		sweeps:   make(chan string, 8),
		timeout:  *timeout,
	}
	var wg sync.WaitGroup
	for _, consume := range []func(){w.consumeHolds, w.consumeConfirms, w.consumeCancels, w.consumeSweeps, w.consumeBoundedSweeps} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			consume()
		}()
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt) // OK: main
	defer stop()
	w.feed(ctx, bufio.NewScanner(os.Stdin))
	close(w.holds)
	close(w.confirms)
	close(w.cancels)
	close(w.sweeps)
	wg.Wait()
}

// feed reads "kind trip seat rider booking" lines until stdin ends or ctx is done.
func (w *worker) feed(ctx context.Context, in *bufio.Scanner) {
	for in.Scan() && ctx.Err() == nil {
		f := strings.Fields(in.Text())
		if len(f) < 5 {
			continue
		}
		m := message{Kind: f[0], Trip: f[1], Seat: f[2], Rider: f[3], Booking: f[4]}
		switch m.Kind {
		case "hold":
			w.holds <- m
		case "confirm":
			w.confirms <- m
		case "cancel":
			w.cancels <- m
		case "sweep":
			w.sweeps <- m.Trip
		}
	}
}

// consumeHolds holds a seat for every hold request.
func (w *worker) consumeHolds() {
	ctx := context.Background()
	for m := range w.holds {
		id, err := w.book.Hold(ctx, m.Trip, m.Seat, m.Rider) // BUG: missingdeadline
		if err != nil {
			w.log.Warn("hold", "trip", m.Trip, "seat", m.Seat, "err", err)
			continue
		}
		w.log.Info("held", "booking", id)
	}
}

// consumeConfirms confirms the bookings the payment webhook reported paid.
func (w *worker) consumeConfirms() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for m := range w.confirms {
		if err := w.Confirm(ctx, m.Booking); err != nil { // BUG: missingdeadline
			w.log.Warn("confirm", "booking", m.Booking, "err", err)
		}
	}
}

// consumeCancels cancels bookings, each message within the per-message timeout.
func (w *worker) consumeCancels() {
	for m := range w.cancels {
		ctx := context.Background()
		if err := w.cancel.CancelRide(ctx, m.Booking); err != nil { // OK: the only implementation adds a deadline of its own
			w.log.Warn("cancel", "booking", m.Booking, "err", err)
		}
		mctx, done := context.WithTimeout(context.Background(), w.timeout)
		if err := w.Cancel(mctx, m.Booking+"/companion"); err != nil { // OK: promoted SDK wrapper, ctx with a deadline
			w.log.Warn("cancel companion", "booking", m.Booking, "err", err)
		}
		done()
	}
}

// consumeSweeps logs the held bookings of every trip a sweep message names.
func (w *worker) consumeSweeps() {
	ctx := context.TODO()
	for trip := range w.sweeps {
		n := 0
		for b := range w.Pending(ctx, trip) { // BUG: missingdeadline
			w.log.Info("pending", "trip", trip, "booking", b.GetId())
			n++
		}
		w.log.Info("swept", "trip", trip, "pending", n)
	}
}

// consumeBoundedSweeps is the nightly variant of consumeSweeps: one minute per trip.
func (w *worker) consumeBoundedSweeps() {
	for _, trip := range []string{"night-1", "night-2"} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		for b := range w.Pending(ctx, trip) { // OK: promoted iterator of the SDK, ctx with a deadline
			w.log.Info("pending", "trip", trip, "booking", b.GetId())
		}
		cancel()
	}
}
