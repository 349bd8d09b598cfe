// Command boxctl is the box-office CLI.
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"os/signal"
	"time"

	bookingv1 "example.test/shapes2/gen/booking/v1"
	"example.test/shapes2/internal/clientx"
)

// withBooking fetches a booking and hands it to fn.
func withBooking(ctx context.Context, c bookingv1.BookingServiceClient, id string, fn func(*bookingv1.Booking)) error {
	b, err := c.GetBooking(ctx, &bookingv1.BookingRequest{BookingId: id})
	if err != nil {
		return err
	}
	fn(b)
	return nil
}

// canceller returns the cancel command bound to c.
func canceller(c bookingv1.BookingServiceClient) func(context.Context, string) error {
	return func(ctx context.Context, id string) error {
		_, err := c.CancelBooking(ctx, &bookingv1.BookingRequest{BookingId: id})
		return err
	}
}

func main() {
	if len(os.Args) < 3 {
		log.Fatal("usage: boxctl VERB ID")
	}
	verb, id := os.Args[1], os.Args[2]
	conn, err := clientx.DialPlain("booking:443")
	if err != nil {
		log.Fatal(err)
	}
	c := bookingv1.NewBookingServiceClient(conn)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	switch verb {
	case "hold":
		hold := c.HoldSeat
		if _, err := hold(ctx, &bookingv1.BookingRequest{SeatId: id}); err != nil { // BUG: missingdeadline
			log.Fatal(err)
		}
	case "show":
		if err := withBooking(ctx, c, id, func(b *bookingv1.Booking) { fmt.Println(b) }); err != nil { // BUG: missingdeadline
			log.Fatal(err)
		}
	case "cancel":
		if err := canceller(c)(ctx, id); err != nil { // BUG: missingdeadline
			log.Fatal(err)
		}
	case "quote":
		qctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		if err := withBooking(qctx, c, id, func(b *bookingv1.Booking) { fmt.Println(b.GetPriceCents()) }); err != nil { // OK
			log.Fatal(err)
		}
	case "checkin":
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		if err := canceller(c)(cctx, id); err != nil { // OK
			log.Fatal(err)
		}
	}
}
