package labsdk

import (
	"context"
	"os"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	bookingv1 "example.test/shapes5/gen/booking/v1"
)

func TestOrderRoundTrip(t *testing.T) {
	addr := os.Getenv("LABSDK_ADDR")
	if addr == "" {
		t.Skip("LABSDK_ADDR not set")
	}
	cc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer cc.Close()
	c := New(cc)
	b, err := c.rpc.GetBooking(context.Background(), &bookingv1.BookingRequest{BookingId: "ORD-1"}) // OK: test code
	if err != nil {
		t.Fatal(err)
	}
	if b.GetId() == "" {
		t.Fatal("empty order id")
	}
}
