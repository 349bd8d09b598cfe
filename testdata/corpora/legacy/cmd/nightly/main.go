// Command nightly is the cron job that expires points, hands out birthday and
// monthly gifts, refreshes tiers and exports the day's grants for finance.
//
// Scheduled at 02:30 by the ops crontab; it talks to loyaltyd over grpc like
// any other client.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	loyaltyv1 "example.test/legacy/gen/loyalty/v1"
	rewardsv1 "example.test/legacy/gen/rewards/v1"
	"example.test/legacy/internal/db"
	"example.test/legacy/internal/helpers"
)

func dial(addr string) *grpc.ClientConn {
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatalf("dial %s: %v", addr, err)
	}
	return conn
}

func main() {
	var (
		dsn         = flag.String("dsn", os.Getenv("DATABASE_URL"), "postgres dsn")
		loyaltyAddr = flag.String("loyalty", "loyaltyd.internal:9090", "loyalty service address")
		rewardsAddr = flag.String("rewards", "loyaltyd.internal:9090", "rewards service address")
		timeout     = flag.Duration("timeout", 0, "overall time limit for the expiry step (0: none)")
		batch       = flag.Int("batch", 500, "expiry batch size")
		exportDir   = flag.String("export-dir", "/var/lib/loyalty/exports", "where the grants export goes")
	)
	flag.Parse()

	if err := db.Open(*dsn); err != nil {
		log.Fatalf("db: %v", err)
	}
	defer db.DB.Close()

	lconn, rconn := dial(*loyaltyAddr), dial(*rewardsAddr)
	defer lconn.Close()
	defer rconn.Close()
	lc := loyaltyv1.NewLoyaltyServiceClient(lconn)
	rc := rewardsv1.NewRewardsServiceClient(rconn)
	helpers.SetRewardsClient(rc)

	start := time.Now()
	var summary []string

	ctx := context.Background()
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	expired, err := expireOldPoints(ctx, lc, int32(*batch)) // OK: the deadline is the user's -timeout flag, applied when set (precision issue)
	if err != nil {
		log.Printf("expire: %v", err)
	}
	summary = append(summary, fmt.Sprintf("expired=%d", expired))

	jctx := context.Background()
	n, err := grantBirthdayRewards(jctx, rc) // BUG: missingdeadline
	if err != nil {
		log.Printf("birthdays: %v", err)
	}
	summary = append(summary, fmt.Sprintf("birthdays=%d", n))

	if err := syncTiers(jctx, lc); err != nil { // OK: the same ctx, on the same path, as the finding at main.go:72, which lists this call (one finding per ctx, precision issue)
		log.Printf("tiers: %v", err)
	}

	if time.Now().Day() == 1 {
		grantMonthlyGift(rc)
	}

	if err := exportGrants(jctx, rc, *exportDir); err != nil { // OK
		log.Printf("export: %v", err)
	}

	revoked, err := reconcileRevocations(jctx, rc) // OK
	if err != nil {
		log.Printf("revocations: %v", err)
	}
	summary = append(summary, fmt.Sprintf("revoked=%d", revoked))

	took := time.Since(start).Round(time.Second)
	db.SaveAudit("nightly", "", fmt.Sprintf("%v took=%s", summary, took)) // OK

	if _, err := db.DB.Exec(`INSERT INTO job_runs (job, took_ms, summary, at) VALUES ('nightly', $1, $2, now())`, took.Milliseconds(), fmt.Sprint(summary)); err != nil { // OK
		log.Printf("job_runs: %v", err)
	}
	log.Printf("nightly done in %s: %v", took, summary)
}
