package clients

import (
	"context"
	"net"
	"testing"

	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/test/bufconn"

	paymentsv1 "example.test/realworld/gen/payments/v1"
)

type fakePayments struct {
	paymentsv1.UnimplementedPaymentsServiceServer
	keys []string
}

func (f *fakePayments) Authorize(ctx context.Context, req *paymentsv1.AuthorizeRequest) (*paymentsv1.Payment, error) {
	if md, ok := metadata.FromIncomingContext(ctx); ok {
		f.keys = append(f.keys, md.Get("idempotency-key")...)
	}
	return &paymentsv1.Payment{Id: "pay_1", OrderId: req.GetOrderId(), AmountCents: req.GetAmountCents(),
		State: paymentsv1.PaymentState_PAYMENT_STATE_AUTHORIZED}, nil
}

func (f *fakePayments) GetPayment(_ context.Context, req *paymentsv1.GetPaymentRequest) (*paymentsv1.Payment, error) {
	return &paymentsv1.Payment{Id: req.GetId(), State: paymentsv1.PaymentState_PAYMENT_STATE_CAPTURED}, nil
}

func startFake(t *testing.T) (*fakePayments, *grpc.ClientConn) {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	fake := &fakePayments{}
	srv := grpc.NewServer()
	paymentsv1.RegisterPaymentsServiceServer(srv, fake)
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
	return fake, conn
}

func TestAuthorizeSendsIdempotencyKey(t *testing.T) {
	fake, conn := startFake(t)
	p := NewPayments(conn, zap.NewNop())
	pay, err := p.Authorize(context.Background(), "ord_1", 1299, "EUR", "tok", "key-1") // OK
	if err != nil {
		t.Fatal(err)
	}
	if pay.GetId() != "pay_1" {
		t.Fatalf("payment id = %q", pay.GetId())
	}
	if len(fake.keys) != 1 || fake.keys[0] != "key-1" {
		t.Fatalf("idempotency keys seen = %v", fake.keys)
	}
}

func TestGet(t *testing.T) {
	_, conn := startFake(t)
	p := NewPayments(conn, zap.NewNop())
	pay, err := p.Get(context.Background(), "pay_9") // OK
	if err != nil {
		t.Fatal(err)
	}
	if pay.GetState() != paymentsv1.PaymentState_PAYMENT_STATE_CAPTURED {
		t.Fatalf("state = %v", pay.GetState())
	}
}
