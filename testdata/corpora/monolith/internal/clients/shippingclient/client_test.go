package shippingclient

import (
	"context"
	"net"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	shippingv1 "example.test/monolith/gen/shipping/v1"
)

type fakeShipping struct {
	shippingv1.UnimplementedShippingServiceServer
}

func (fakeShipping) GetShipment(ctx context.Context, req *shippingv1.GetShipmentRequest) (*shippingv1.Shipment, error) {
	return &shippingv1.Shipment{Id: req.GetId(), Status: "in_transit"}, nil
}

func newTestClient(t *testing.T) *Client {
	t.Helper()
	lis := bufconn.Listen(1 << 16)
	srv := grpc.NewServer()
	shippingv1.RegisterShippingServiceServer(srv, fakeShipping{})
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	conn, err := grpc.NewClient("passthrough:///bufnet",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
	)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return New(conn, time.Second)
}

func TestGet(t *testing.T) {
	c := newTestClient(t)
	sh, err := c.Get(context.Background(), "shp_1") // OK
	if err != nil {
		t.Fatal(err)
	}
	if sh.GetStatus() != "in_transit" {
		t.Fatalf("status = %q", sh.GetStatus())
	}
}

func TestStatusOf(t *testing.T) {
	c := newTestClient(t)
	st, err := c.StatusOf("shp_2") // OK
	if err != nil || st != "in_transit" {
		t.Fatalf("StatusOf = %q, %v", st, err)
	}
}
