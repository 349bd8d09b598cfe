package payclient

import (
	"context"
	"errors"
	"testing"
	"time"

	"google.golang.org/grpc"

	paymentsv1 "example.test/payments/gen/payments/v1"
)

type fakeRPC struct {
	paymentsv1.PaymentServiceClient
	payments map[string]*paymentsv1.Payment
	gotID    string
}

func (f *fakeRPC) GetPayment(ctx context.Context, in *paymentsv1.GetPaymentRequest, _ ...grpc.CallOption) (*paymentsv1.Payment, error) {
	f.gotID = in.GetId()
	if p, ok := f.payments[in.GetId()]; ok {
		return p, nil
	}
	return nil, errors.New("not found")
}

func TestGet(t *testing.T) {
	rpc := &fakeRPC{payments: map[string]*paymentsv1.Payment{"pay_1": {Id: "pay_1", MerchantId: "m_1"}}}
	c := New(rpc, time.Second)

	p, err := c.Get(context.Background(), "pay_1") // OK
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	if p.GetMerchantId() != "m_1" || rpc.gotID != "pay_1" {
		t.Fatalf("Get = %v (asked for %q)", p, rpc.gotID)
	}
	if _, err := c.Get(context.Background(), "pay_2"); err == nil { // OK
		t.Fatal("Get of a missing payment succeeded")
	}
}
