package compactor

import (
	"context"
	"time"

	"example.test/telemetry/gen/storegatewaypb"
	"example.test/telemetry/pkg/limits"
	"example.test/telemetry/pkg/util/log"
)

// RetentionJob deletes blocks older than each tenant's retention.
type RetentionJob struct {
	gw      storegatewaypb.StoreGatewayClient
	limits  limits.Provider
	tenants func() []string
	period  time.Duration
}

// NewRetentionJob returns a retention job using gw.
func NewRetentionJob(gw storegatewaypb.StoreGatewayClient, lim limits.Provider, tenants func() []string, period time.Duration) *RetentionJob {
	return &RetentionJob{gw: gw, limits: lim, tenants: tenants, period: period}
}

// Run applies retention every period until stop is closed.
func (r *RetentionJob) Run(stop <-chan struct{}) {
	t := time.NewTicker(r.period)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		for _, org := range r.tenants() {
			if err := r.deleteExpired(context.Background(), org); err != nil { // BUG: missingdeadline — the cron hands a bare root to two store-gateway RPCs
				log.Warn(context.Background(), "retention failed", "org", org, "err", err) // OK: missingdeadline — a log, no RPC
			}
		}
	}
}

func (r *RetentionJob) deleteExpired(ctx context.Context, org string) error {
	lim := r.limits.Limits(ctx, org)
	if lim.RetentionHours <= 0 {
		return nil
	}
	cutoff := time.Now().Add(-time.Duration(lim.RetentionHours) * time.Hour).UnixNano()
	resp, err := r.gw.ListBlocks(ctx, &storegatewaypb.ListBlocksRequest{Tenant: org}) // OK: missingdeadline — reported at the caller that supplies the deadline-less ctx
	if err != nil {
		return err
	}
	var expired []string
	for _, b := range resp.GetBlocks() {
		if b.GetMaxTime() < cutoff {
			expired = append(expired, b.GetId())
		}
	}
	if len(expired) == 0 {
		return nil
	}
	_, err = r.gw.DeleteBlocks(ctx, &storegatewaypb.DeleteBlocksRequest{Tenant: org, BlockIds: expired}) // OK: missingdeadline — same deadline-less ctx, one finding at the caller
	return err
}
