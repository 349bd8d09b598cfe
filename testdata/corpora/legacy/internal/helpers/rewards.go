package helpers

import (
	"context"
	"fmt"
	"sync"
	"time"

	loyaltyv1 "example.test/legacy/gen/loyalty/v1"
	rewardsv1 "example.test/legacy/gen/rewards/v1"
	"example.test/legacy/internal/util"
)

var (
	rewardsClient rewardsv1.RewardsServiceClient

	catMu    sync.Mutex
	catalog  = map[string][]*rewardsv1.Reward{}
	catStamp = map[string]time.Time{}
)

// SetRewardsClient is called once from main.
func SetRewardsClient(c rewardsv1.RewardsServiceClient) { rewardsClient = c }

// ListActiveRewards returns the active catalogue for a tier, cached for a minute.
func ListActiveRewards(tier string) ([]*rewardsv1.Reward, error) {
	catMu.Lock()
	if rs, ok := catalog[tier]; ok && time.Since(catStamp[tier]) < time.Minute {
		catMu.Unlock()
		return rs, nil
	}
	catMu.Unlock()

	resp, err := rewardsClient.ListRewards(context.TODO(), &rewardsv1.ListRewardsRequest{Tier: tier}) // OK: a convenience API (no ctx, one RPC with an inline root): reported at its callers (precision issue)
	if err != nil {
		return nil, fmt.Errorf("list rewards %s: %w", tier, err)
	}
	catMu.Lock()
	catalog[tier] = resp.GetRewards()
	catStamp[tier] = time.Now()
	catMu.Unlock()
	return resp.GetRewards(), nil
}

// AwardBonus grants a reward to a member.
func AwardBonus(ctx context.Context, rc rewardsv1.RewardsServiceClient, memberID, rewardID, reason string) (*rewardsv1.Grant, error) {
	resp, err := rc.GrantReward(ctx, &rewardsv1.GrantRewardRequest{
		MemberId:       memberID,
		RewardId:       rewardID,
		Reason:         reason,
		IdempotencyKey: reason + ":" + memberID + ":" + rewardID,
	})
	if err != nil {
		return nil, fmt.Errorf("grant %s to %s: %w", rewardID, memberID, err)
	}
	return resp.GetGrant(), nil
}

// GrantWithRetry is AwardBonus with the util retry around it.
func GrantWithRetry(ctx context.Context, rc rewardsv1.RewardsServiceClient, req *rewardsv1.GrantRewardRequest) (*rewardsv1.Grant, error) {
	var g *rewardsv1.Grant
	err := util.Retry(func() error {
		resp, err := rc.GrantReward(ctx, req)
		if err != nil {
			return err
		}
		g = resp.GetGrant()
		return nil
	})
	return g, err
}

// RefreshTier asks the loyalty service to recompute a member's tier.
func RefreshTier(ctx context.Context, lc loyaltyv1.LoyaltyServiceClient, memberID string) (string, error) {
	m, err := lc.RecalculateTier(ctx, &loyaltyv1.RecalculateTierRequest{MemberId: memberID})
	if err != nil {
		return "", err
	}
	return m.GetTier(), nil
}

// ExpireBatch expires one batch of points; each batch gets two minutes.
func ExpireBatch(ctx context.Context, lc loyaltyv1.LoyaltyServiceClient, before string, size int32) (*loyaltyv1.ExpirePointsResponse, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	return lc.ExpirePoints(ctx, &loyaltyv1.ExpirePointsRequest{Before: before, BatchSize: size})
}
