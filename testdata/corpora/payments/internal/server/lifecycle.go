package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"time"

	paymentsv1 "example.test/payments/gen/payments/v1"
	"example.test/payments/internal/ledger"
)

// postWebhook delivers a payment's new status to the merchant's endpoint.
func (s *PaymentServer) postWebhook(p *ledger.Payment) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // OK
	defer cancel()
	body, err := json.Marshal(map[string]any{"type": "payment." + string(p.Status), "payment_id": p.ID})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.WebhookURL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := s.webhooks.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("webhook %s: %s", p.WebhookURL, resp.Status)
	}
	return nil
}

// audit writes one row to the audit trail.
func (s *PaymentServer) audit(ctx context.Context, action, subject string) {
	if _, err := s.db.ExecContext(ctx,
		`INSERT INTO audit_log (action, subject, at) VALUES ($1, $2, now())`, action, subject); err != nil {
		log.Printf("audit %s %s: %v", action, subject, err)
	}
}

// recordAttempt keeps every authorization attempt for dispute handling.
func (s *PaymentServer) recordAttempt(ctx context.Context, in *paymentsv1.AuthorizeRequest) {
	if _, err := s.db.ExecContext(ctx,
		`INSERT INTO authorization_attempts (payment_id, amount_minor, currency, at) VALUES ($1, $2, $3, now())`,
		in.GetPaymentId(), in.GetAmount().GetMinorUnits(), in.GetAmount().GetCurrency()); err != nil {
		log.Printf("record attempt for %s: %v", in.GetPaymentId(), err)
	}
}

// StartExpirySweeper expires stale authorizations every interval until stop is called.
func (s *PaymentServer) StartExpirySweeper(every time.Duration) (stop func()) {
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			ctx, cancel := context.WithTimeout(context.Background(), every/2) // OK
			n, err := s.store.ExpireAuthorizations(ctx, 7*24*time.Hour)
			cancel()
			if err != nil {
				log.Printf("expiry sweep: %v", err)
			} else if n > 0 {
				log.Printf("expiry sweep: expired %d authorizations", n)
			}
		}
	}()
	return func() { close(done) }
}

// Close flushes pending outbox writes.
func (s *PaymentServer) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // OK
	defer cancel()
	return s.outbox.Flush(ctx)
}
