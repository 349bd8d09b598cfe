package ridesdk

import (
	"context"
	"net"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	bookingv1 "example.test/shapes4/gen/booking/v1"
)

type fakeRides struct {
	bookingv1.UnimplementedBookingServiceServer
}

func (fakeRides) GetBooking(_ context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	return &bookingv1.Booking{Id: req.GetBookingId(), State: "confirmed"}, nil
}

func TestBooking(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	bookingv1.RegisterBookingServiceServer(srv, fakeRides{})
	go srv.Serve(lis)
	defer srv.Stop()

	cc, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer cc.Close()
	b, err := New(cc).Booking(context.Background(), "r-1") // OK: test code
	if err != nil || b.GetState() != "confirmed" {
		t.Fatalf("Booking = %v, %v", b, err)
	}
}
