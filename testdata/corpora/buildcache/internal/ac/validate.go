package ac

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"example.test/buildcache/gen/bcv1"
	"example.test/buildcache/internal/obs"
)

// Validator checks that an action result's outputs exist in the CAS.
type Validator struct {
	cas bcv1.ContentAddressableStorageClient
}

// Check fails when an output is missing.
func (v *Validator) Check(ctx context.Context, res *bcv1.ActionResult) error {
	resp, err := v.cas.FindMissingBlobs(ctx, &bcv1.FindMissingBlobsRequest{Digests: res.GetOutputs()})
	if err != nil {
		return err
	}
	if n := len(resp.GetMissing()); n > 0 {
		return fmt.Errorf("%d outputs missing", n)
	}
	return nil
}

// Audit records cache writes.
type Audit struct {
	db *sql.DB
}

// Record writes one audit row.
func (a *Audit) Record(ctx context.Context, cluster, key string) {
	if _, err := a.db.ExecContext(ctx, `INSERT INTO audit(cluster, key, at) VALUES ($1, $2, $3)`, cluster, key, time.Now()); err != nil {
		obs.Log.Error(ctx, "audit", "err", err)
	}
}
