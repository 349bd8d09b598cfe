package fraud

import (
	"context"
	"fmt"
	"sync"
	"time"

	"google.golang.org/grpc"

	riskv1 "example.test/payments/gen/risk/v1"
)

// Risk wraps the internal risk service's gRPC client.
type Risk struct {
	client  riskv1.RiskServiceClient
	timeout time.Duration

	mu    sync.RWMutex
	rules map[string]*riskv1.GetRulesResponse
}

// NewRisk returns a wrapper on conn; timeout bounds each Score call.
func NewRisk(conn grpc.ClientConnInterface, timeout time.Duration) *Risk {
	return &Risk{
		client:  riskv1.NewRiskServiceClient(conn),
		timeout: timeout,
		rules:   make(map[string]*riskv1.GetRulesResponse),
	}
}

// Score asks the risk service for a score in [0,1] and the reasons behind it.
func (r *Risk) Score(ctx context.Context, in *riskv1.ScoreRequest) (float64, []string, error) {
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	resp, err := r.client.Score(ctx, in) // OK
	if err != nil {
		return 0, nil, fmt.Errorf("risk score %s: %w", in.GetPaymentId(), err)
	}
	return resp.GetScore(), resp.GetReasons(), nil
}

// ReportOutcome feeds the final outcome of a payment back to the risk model.
func (r *Risk) ReportOutcome(ctx context.Context, paymentID, outcome string) error {
	_, err := r.client.ReportOutcome(ctx, &riskv1.ReportOutcomeRequest{PaymentId: paymentID, Outcome: outcome}) // OK
	if err != nil {
		return fmt.Errorf("report outcome %s: %w", paymentID, err)
	}
	return nil
}

// Rules returns the merchant's rule set, from the cache when warm.
func (r *Risk) Rules(ctx context.Context, merchantID string) (*riskv1.GetRulesResponse, error) {
	r.mu.RLock()
	cached := r.rules[merchantID]
	r.mu.RUnlock()
	if cached != nil {
		return cached, nil
	}
	resp, err := r.client.GetRules(ctx, &riskv1.GetRulesRequest{MerchantId: merchantID}) // OK
	if err != nil {
		return nil, fmt.Errorf("risk rules %s: %w", merchantID, err)
	}
	r.store(merchantID, resp)
	return resp, nil
}

// WarmRules loads the merchant's rule set into the cache.
func (r *Risk) WarmRules(merchantID string) error {
	ctx := context.Background()
	resp, err := r.client.GetRules(ctx, &riskv1.GetRulesRequest{MerchantId: merchantID}) // BUG: missingdeadline
	if err != nil {
		return fmt.Errorf("warm rules %s: %w", merchantID, err)
	}
	r.store(merchantID, resp)
	return nil
}

func (r *Risk) store(merchantID string, resp *riskv1.GetRulesResponse) {
	r.mu.Lock()
	r.rules[merchantID] = resp
	r.mu.Unlock()
}
