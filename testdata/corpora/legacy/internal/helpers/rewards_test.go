package helpers

import (
	"context"
	"errors"
	"testing"

	"google.golang.org/grpc"

	rewardsv1 "example.test/legacy/gen/rewards/v1"
)

type fakeRewards struct {
	rewardsv1.RewardsServiceClient
	fails int
	calls int
}

func (f *fakeRewards) GrantReward(ctx context.Context, in *rewardsv1.GrantRewardRequest, _ ...grpc.CallOption) (*rewardsv1.GrantRewardResponse, error) {
	f.calls++
	if f.calls <= f.fails {
		return nil, errors.New("unavailable")
	}
	return &rewardsv1.GrantRewardResponse{Grant: &rewardsv1.Grant{Id: "g1", MemberId: in.GetMemberId(), RewardId: in.GetRewardId(), Code: "ABC"}}, nil
}

func TestAwardBonus(t *testing.T) {
	f := &fakeRewards{}
	g, err := AwardBonus(context.Background(), f, "m1", "r1", "test") // OK
	if err != nil || g.GetCode() != "ABC" {
		t.Fatalf("AwardBonus = %v, %v", g, err)
	}
}

func TestGrantWithRetry(t *testing.T) {
	f := &fakeRewards{fails: 2}
	g, err := GrantWithRetry(context.Background(), f, &rewardsv1.GrantRewardRequest{MemberId: "m1", RewardId: "r1"}) // OK
	if err != nil || f.calls != 3 || g.GetId() != "g1" {
		t.Fatalf("GrantWithRetry = %v, %v after %d calls", g, err, f.calls)
	}
}

func TestTierFor(t *testing.T) {
	for spend, want := range map[int64]string{0: "basic", 50_000: "silver", 200_000: "gold", 900_000: "platinum"} {
		if got := TierFor(spend); got != want {
			t.Errorf("TierFor(%d) = %s, want %s", spend, got, want)
		}
	}
}
