package server

import (
	"google.golang.org/protobuf/types/known/timestamppb"

	ledgerv1 "example.test/payments/gen/ledger/v1"
	paymentsv1 "example.test/payments/gen/payments/v1"
	"example.test/payments/internal/ledger"
	"example.test/payments/internal/outbox"
)

var statusToProto = map[ledger.Status]paymentsv1.PaymentStatus{
	ledger.StatusPending:    paymentsv1.PaymentStatus_PAYMENT_STATUS_PENDING,
	ledger.StatusAuthorized: paymentsv1.PaymentStatus_PAYMENT_STATUS_AUTHORIZED,
	ledger.StatusCaptured:   paymentsv1.PaymentStatus_PAYMENT_STATUS_CAPTURED,
	ledger.StatusRefunded:   paymentsv1.PaymentStatus_PAYMENT_STATUS_REFUNDED,
	ledger.StatusDeclined:   paymentsv1.PaymentStatus_PAYMENT_STATUS_DECLINED,
}

func paymentProto(p *ledger.Payment) *paymentsv1.Payment {
	return &paymentsv1.Payment{
		Id:              p.ID,
		MerchantId:      p.MerchantID,
		Amount:          &paymentsv1.Money{Currency: p.Currency, MinorUnits: p.AmountMinor},
		Status:          statusToProto[p.Status],
		CardFingerprint: p.CardFingerprint,
		CreatedAt:       timestamppb.New(p.CreatedAt),
		IdempotencyKey:  p.IdempotencyKey,
	}
}

func refundProto(r ledger.Refund) *paymentsv1.Refund {
	return &paymentsv1.Refund{
		Id:        r.ID,
		PaymentId: r.PaymentID,
		Amount:    &paymentsv1.Money{Currency: r.Currency, MinorUnits: r.AmountMinor},
		CreatedAt: timestamppb.New(r.CreatedAt),
	}
}

func balanceProto(b *ledger.Balance) *ledgerv1.Balance {
	return &ledgerv1.Balance{
		AccountId:      b.AccountID,
		Currency:       b.Currency,
		AvailableMinor: b.AvailableMinor,
		PendingMinor:   b.PendingMinor,
		AsOf:           timestamppb.New(b.AsOf),
	}
}

func entryProto(e ledger.Entry) *ledgerv1.Entry {
	return &ledgerv1.Entry{
		Id:          e.ID,
		AccountId:   e.AccountID,
		Currency:    e.Currency,
		AmountMinor: e.AmountMinor,
		Reference:   e.Reference,
		PostedAt:    timestamppb.New(e.PostedAt),
	}
}

func entryFromProto(e *ledgerv1.Entry) ledger.Entry {
	return ledger.Entry{
		ID:          e.GetId(),
		AccountID:   e.GetAccountId(),
		Currency:    e.GetCurrency(),
		AmountMinor: e.GetAmountMinor(),
		Reference:   e.GetReference(),
		PostedAt:    e.GetPostedAt().AsTime(),
	}
}

func paymentEvent(topic string, p *ledger.Payment) outbox.Event {
	return outbox.NewEvent(ledger.NewID("evt"), topic, p.ID, map[string]any{
		"payment_id":   p.ID,
		"merchant_id":  p.MerchantID,
		"status":       p.Status,
		"amount_minor": p.AmountMinor,
		"currency":     p.Currency,
	})
}
