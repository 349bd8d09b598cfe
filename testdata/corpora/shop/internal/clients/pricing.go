package clients

import (
	"context"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/shop/internal/retry"
	"example.test/shop/proto/shoppb"
)

// Pricing wraps the Pricing RPC with a default timeout, a safety margin and
// retries.
type Pricing struct {
	cache          *ConnCache
	addr           string
	defaultTimeout time.Duration
	margin         time.Duration
	policy         retry.Policy
}

func NewPricing(cache *ConnCache, addr string, defaultTimeout time.Duration) *Pricing {
	return &Pricing{
		cache:          cache,
		addr:           addr,
		defaultTimeout: defaultTimeout,
		margin:         20 * time.Millisecond,
		policy:         retry.Default,
	}
}

// Raw exposes the generated client for callers that need per-call options.
func (p *Pricing) Raw() (shoppb.PricingClient, error) {
	cc, err := p.cache.Get(p.addr)
	if err != nil {
		return nil, err
	}
	return shoppb.NewPricingClient(cc), nil
}

// bound gives the outbound call a deadline: the caller's minus a margin, or
// the default if the caller has none.
func (p *Pricing) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	dl, ok := ctx.Deadline()
	if !ok {
		return context.WithTimeout(ctx, p.defaultTimeout)
	}
	if budget := time.Until(dl) - p.margin; budget > 0 {
		return context.WithTimeout(ctx, budget)
	}
	return context.WithCancel(ctx)
}

func retryable(err error) bool {
	switch status.Code(err) {
	case codes.Unavailable, codes.ResourceExhausted, codes.Aborted:
		return true
	}
	return false
}

func (p *Pricing) Quote(ctx context.Context, items []*shoppb.LineItem) (int64, error) {
	raw, err := p.Raw()
	if err != nil {
		return 0, err
	}
	ctx, cancel := p.bound(ctx)
	defer cancel()
	perAttempt := PerAttempt(ctx, p.policy.Attempts)
	return retry.Do(ctx, p.policy, retryable, func(ctx context.Context) (int64, error) {
		if perAttempt > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, perAttempt)
			defer cancel()
		}
		resp, err := raw.Quote(ctx, &shoppb.PriceQuoteRequest{Items: items})
		if err != nil {
			return 0, err
		}
		return resp.GetTotalCents(), nil
	})
}

// PerAttempt splits what is left of ctx's deadline evenly across attempts so
// the first attempt cannot eat the whole budget. Zero means "no deadline".
func PerAttempt(ctx context.Context, attempts int) time.Duration {
	dl, ok := ctx.Deadline()
	if !ok || attempts <= 0 {
		return 0
	}
	return time.Until(dl) / time.Duration(attempts)
}
