// Package worker runs actions leased from the scheduler.
package worker

import (
	"context"
	"os/exec"
	"sync"
	"time"

	"example.test/buildcache/gen/bcv1"
	"example.test/buildcache/internal/obs"
	"example.test/buildcache/internal/pool"
)

// Worker polls for actions and runs them.
type Worker struct {
	id       string
	bots     bcv1.BotsClient
	cas      bcv1.ContentAddressableStorageClient
	pool     *pool.Pool
	casAddr  string
	timeout  time.Duration
	initOnce sync.Once
}

// New returns a worker that talks to the scheduler over conn.
func New(id string, bots bcv1.BotsClient, cas bcv1.ContentAddressableStorageClient, casAddr string) *Worker {
	return &Worker{id: id, bots: bots, cas: cas, pool: pool.New(), casAddr: casAddr, timeout: 10 * time.Minute}
}

// Run polls until ctx ends.
func (w *Worker) Run(ctx context.Context) error {
	for ctx.Err() == nil {
		pctx, cancel := context.WithTimeout(ctx, time.Minute)
		sess, err := w.bots.UpdateBotSession(pctx, &bcv1.UpdateBotSessionRequest{Session: &bcv1.BotSession{BotId: w.id}}) // OK: missingdeadline — each long-poll is bounded
		cancel()
		if err != nil || sess.GetLease() == "" {
			continue
		}
		w.execute(ctx, sess)
	}
	return ctx.Err()
}

func (w *Worker) execute(ctx context.Context, sess *bcv1.BotSession) {
	w.initOnce.Do(func() {
		ictx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // OK: missingdeadline — one-time warm-up, bounded
		defer cancel()
		_, _ = w.cas.GetCapabilities(ictx, &bcv1.GetCapabilitiesRequest{})
	})
	ectx, cancel := context.WithTimeout(ctx, w.timeout)
	defer cancel()
	if err := w.fetchInputs(ectx, sess.GetAction()); err != nil {
		obs.Log.Error(ectx, "fetch inputs", "err", err)
		return
	}
	cmd := exec.CommandContext(ectx, "/bin/sh", "-c", "true")
	code := 0
	if err := cmd.Run(); err != nil {
		code = 1
	}
	res := &bcv1.ActionResult{ExitCode: int32(code)}
	if _, err := w.cas.BatchUpdateBlobs(ectx, &bcv1.BatchUpdateBlobsRequest{}); err != nil { // OK: missingdeadline — bounded by the action timeout
		obs.Log.Error(ectx, "upload outputs", "err", err)
	}
	if err := w.reportDone(sess.GetLease(), res); err != nil {
		obs.Log.Error(ectx, "report", "err", err)
	}
}

func (w *Worker) reportDone(op string, res *bcv1.ActionResult) error {
	_, err := w.bots.PostResult(context.Background(), &bcv1.PostResultRequest{BotId: w.id, Operation: op, Result: res}) // BUG: missingdeadline — no deadline on the result report
	return err
}

// Stop tells the scheduler this bot leaves.
func (w *Worker) Stop() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, _ = w.bots.PostResult(ctx, &bcv1.PostResultRequest{BotId: w.id}) // OK: missingdeadline — bounded shutdown notice
	_ = w.pool.Close()
}
