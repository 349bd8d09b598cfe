package worker

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"example.test/storage/internal/kv"
)

// IDSource hands out unique ids.
type IDSource interface {
	NextID(ctx context.Context) (uint64, error)
}

// Job is a background compaction of one region.
type Job struct {
	ID     string
	region uint64
	cancel context.CancelFunc
	done   atomic.Bool
}

// Cancel stops the job.
func (j *Job) Cancel() { j.cancel() }

// Done reports whether the job finished.
func (j *Job) Done() bool { return j.done.Load() }

// Compactor compacts regions, either inline (bounded) or as background jobs.
type Compactor struct {
	store   kv.Store
	ids     IDSource
	maxTime time.Duration
	seq     atomic.Uint64

	mu   sync.Mutex
	jobs map[string]*Job
}

// NewCompactor returns a compactor over store.
func NewCompactor(store kv.Store, ids IDSource, maxTime time.Duration) *Compactor {
	return &Compactor{store: store, ids: ids, maxTime: maxTime, jobs: map[string]*Job{}}
}

// CompactNow compacts region within the caller's ctx, and at most maxTime.
func (c *Compactor) CompactNow(ctx context.Context, region uint64) (uint64, error) {
	ctx, cancel := context.WithTimeout(ctx, c.maxTime)
	defer cancel()
	return c.compact(ctx, region)
}

// StartJob starts a background compaction of region; it is stopped through
// the job.
func (c *Compactor) StartJob(region uint64) *Job {
	jctx, cancel := context.WithCancel(context.Background())
	j := &Job{ID: fmt.Sprintf("compact-%d-%d", region, c.seq.Add(1)), region: region, cancel: cancel}
	c.mu.Lock()
	c.jobs[j.ID] = j
	c.mu.Unlock()
	go func() {
		defer cancel()
		if _, err := c.compact(jctx, region); err != nil {
			slog.Warn("compaction job failed", "job", j.ID, "err", err)
		}
		j.done.Store(true)
	}()
	return j
}

// JobID allocates the id of a manual job from the cluster.
func (c *Compactor) JobID() (uint64, error) {
	return c.ids.NextID(context.Background()) // OK: missingdeadline — an interface call, no implementation of which is a function of this package (the only one, peer.MetaClient, bounds every call itself)
}

func (c *Compactor) compact(ctx context.Context, region uint64) (uint64, error) {
	prefix := []byte(fmt.Sprintf("r/%d/", region))
	end := append(append([]byte{}, prefix[:len(prefix)-1]...), '0')
	var stale [][]byte
	var reclaimed uint64
	err := c.store.Scan(ctx, prefix, end, func(k, v []byte) bool {
		if len(v) == 0 {
			stale = append(stale, k)
		}
		return true
	})
	if err != nil {
		return 0, err
	}
	for _, k := range stale {
		if err := c.store.Delete(ctx, k); err != nil {
			return reclaimed, err
		}
		reclaimed += uint64(len(k))
	}
	return reclaimed, nil
}

// Stop cancels every running job.
func (c *Compactor) Stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for id, j := range c.jobs {
		j.cancel()
		delete(c.jobs, id)
	}
}
