package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	loyaltyv1 "example.test/legacy/gen/loyalty/v1"
	rewardsv1 "example.test/legacy/gen/rewards/v1"
	"example.test/legacy/internal/db"
	"example.test/legacy/internal/helpers"
)

const (
	birthdayRewardID = "birthday-cake"
	monthlyTier      = "platinum"
)

// expireOldPoints estimates, then expires in batches until nothing is left.
func expireOldPoints(ctx context.Context, lc loyaltyv1.LoyaltyServiceClient, batch int32) (int64, error) {
	before := time.Now().AddDate(-2, 0, 0).Format("2006-01-02")
	est, err := lc.ExpirePoints(ctx, &loyaltyv1.ExpirePointsRequest{Before: before, BatchSize: 5000, DryRun: true})
	if err != nil {
		return 0, fmt.Errorf("estimate: %w", err)
	}
	log.Printf("expire: about %d members, %d points", est.GetMembers(), est.GetPoints())

	var total int64
	for i := 0; i < 1000; i++ {
		resp, err := helpers.ExpireBatch(ctx, lc, before, batch) // OK
		if err != nil {
			return total, err
		}
		total += resp.GetPoints()
		if resp.GetMembers() < int64(batch) {
			break
		}
		time.Sleep(500 * time.Millisecond) // OK
	}
	return total, nil
}

func grantBirthdayRewards(ctx context.Context, rc rewardsv1.RewardsServiceClient) (int, error) {
	rows, err := db.DB.QueryContext(ctx,
		`SELECT id FROM members WHERE status = 'active'
		  AND extract(month FROM birthday) = extract(month FROM now())
		  AND extract(day FROM birthday) = extract(day FROM now())`)
	if err != nil {
		return 0, err
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err == nil {
			ids = append(ids, id)
		}
	}
	rows.Close()

	year := time.Now().Format("2006")
	n := 0
	for _, id := range ids {
		if _, err := helpers.AwardBonus(ctx, rc, id, birthdayRewardID, "birthday:"+year); err != nil {
			log.Printf("birthday %s: %v", id, err)
			continue
		}
		n++
	}
	return n, nil
}

func syncTiers(ctx context.Context, lc loyaltyv1.LoyaltyServiceClient) error {
	rows, err := db.DB.Query(`SELECT id FROM members WHERE status = 'active' AND (tier_changed_at IS NULL OR tier_changed_at < now() - interval '30 days')`) // OK
	if err != nil {
		return err
	}
	defer rows.Close()
	changed := 0
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return err
		}
		tier, err := helpers.RefreshTier(ctx, lc, id)
		if err != nil {
			log.Printf("tier %s: %v", id, err)
			continue
		}
		if tier != "" {
			changed++
		}
		time.Sleep(20 * time.Millisecond) // OK
	}
	log.Printf("tiers: %d refreshed", changed)
	return rows.Err()
}

// grantMonthlyGift gives every platinum member the cheapest platinum reward.
func grantMonthlyGift(rc rewardsv1.RewardsServiceClient) {
	ctx := context.Background()
	list, err := rc.ListRewards(ctx, &rewardsv1.ListRewardsRequest{Tier: monthlyTier}) // BUG: missingdeadline
	if err != nil || len(list.GetRewards()) == 0 {
		log.Printf("monthly gift: no catalogue: %v", err)
		return
	}
	gift := list.GetRewards()[0]

	rows, err := db.DB.QueryContext(ctx, `SELECT id FROM members WHERE status = 'active' AND tier = $1`, monthlyTier)
	if err != nil {
		log.Printf("monthly gift: %v", err)
		return
	}
	defer rows.Close()
	month := time.Now().Format("2006-01")
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return
		}
		if _, err := helpers.AwardBonus(ctx, rc, id, gift.GetId(), "monthly:"+month); err != nil { // OK: the same ctx, on the same path, as the finding at jobs.go:105, which lists this call (one finding per ctx, precision issue)
			log.Printf("monthly gift %s: %v", id, err)
		}
	}
}

func exportGrants(ctx context.Context, rc rewardsv1.RewardsServiceClient, dir string) error {
	day := time.Now().AddDate(0, 0, -1).Format("2006-01-02")
	stream, err := rc.ExportGrants(ctx, &rewardsv1.ExportGrantsRequest{Since: day}) // OK
	if err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, "grants-"+day+".csv"))
	if err != nil {
		return err
	}
	defer f.Close()
	w := csv.NewWriter(f)
	_ = w.Write([]string{"id", "member_id", "reward_id", "code", "status"})
	for {
		g, err := stream.Recv()
		if err != nil {
			break
		}
		_ = w.Write([]string{g.GetId(), g.GetMemberId(), g.GetRewardId(), g.GetCode(), g.GetStatus()})
	}
	w.Flush()
	return w.Error()
}

// reconcileRevocations revokes grants that fraud flagged during the day.
func reconcileRevocations(ctx context.Context, rc rewardsv1.RewardsServiceClient) (int, error) {
	rows, err := db.DB.QueryContext(ctx, `SELECT grant_id, reason FROM fraud_flags WHERE handled_at IS NULL`)
	if err != nil {
		return 0, err
	}
	type flag struct{ grant, reason string }
	var flags []flag
	for rows.Next() {
		var f flag
		if err := rows.Scan(&f.grant, &f.reason); err == nil {
			flags = append(flags, f)
		}
	}
	rows.Close()

	n := 0
	for _, f := range flags {
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		_, err := rc.RevokeGrant(cctx, &rewardsv1.RevokeGrantRequest{GrantId: f.grant, Reason: f.reason}) // OK
		cancel()
		if err != nil {
			log.Printf("revoke %s: %v", f.grant, err)
			continue
		}
		if _, err := db.DB.ExecContext(ctx, `UPDATE fraud_flags SET handled_at = now() WHERE grant_id = $1`, f.grant); err != nil {
			log.Printf("revoke %s: mark: %v", f.grant, err)
		}
		n++
	}
	return n, nil
}
