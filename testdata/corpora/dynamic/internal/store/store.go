// Package store is the job runner's Postgres layer: jobs, queue lanes, advisory locks, stock
// holds and shards. Every method does its work with the ctx it is given.
package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"
)

// ErrNotFound is returned when a row does not exist.
var ErrNotFound = errors.New("store: not found")

// Job is one row of the jobs table.
type Job struct {
	ID       string
	Kind     string
	State    string
	Tenant   string
	Shard    string
	SKUs     []string
	Attempts int
	History  []string
	Updated  time.Time
}

// Jobs is the jobs table.
type Jobs struct{ db *sql.DB }

// NewJobs returns the jobs repository.
func NewJobs(db *sql.DB) *Jobs { return &Jobs{db: db} }

// Save inserts or replaces a job.
func (r *Jobs) Save(ctx context.Context, j Job) error {
	_, err := r.db.ExecContext(ctx, `INSERT INTO jobs (id, kind, state, tenant, shard, skus, attempts, updated)
		VALUES ($1, $2, $3, $4, $5, $6, $7, now())
		ON CONFLICT (id) DO UPDATE SET kind = $2, state = $3, tenant = $4, shard = $5, skus = $6, attempts = $7, updated = now()`,
		j.ID, j.Kind, j.State, j.Tenant, j.Shard, strings.Join(j.SKUs, ","), j.Attempts)
	return err
}

// Load reads a job, possibly from a replica.
func (r *Jobs) Load(ctx context.Context, id string) (Job, error) {
	return r.load(ctx, `SELECT id, kind, state, tenant, shard, skus, attempts, updated FROM jobs WHERE id = $1`, id)
}

// LoadPrimary reads a job from the primary.
func (r *Jobs) LoadPrimary(ctx context.Context, id string) (Job, error) {
	return r.load(ctx, `/* primary */ SELECT id, kind, state, tenant, shard, skus, attempts, updated FROM jobs WHERE id = $1`, id)
}

func (r *Jobs) load(ctx context.Context, q, id string) (Job, error) {
	var j Job
	var skus string
	err := r.db.QueryRowContext(ctx, q, id).Scan(&j.ID, &j.Kind, &j.State, &j.Tenant, &j.Shard, &skus, &j.Attempts, &j.Updated)
	if errors.Is(err, sql.ErrNoRows) {
		return Job{}, ErrNotFound
	}
	if skus != "" {
		j.SKUs = strings.Split(skus, ",")
	}
	return j, err
}

// History returns the journal lines of a job, oldest first.
func (r *Jobs) History(ctx context.Context, id string) ([]string, error) {
	rows, err := r.db.QueryContext(ctx, `SELECT line FROM journal WHERE job_id = $1 ORDER BY at`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return nil, err
		}
		out = append(out, line)
	}
	return out, rows.Err()
}

// SetState moves a job to state.
func (r *Jobs) SetState(ctx context.Context, id, state string) error {
	res, err := r.db.ExecContext(ctx, `UPDATE jobs SET state = $2, updated = now() WHERE id = $1`, id, state)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// MoveTo moves a job to another shard.
func (r *Jobs) MoveTo(ctx context.Context, id, shard string) error {
	_, err := r.db.ExecContext(ctx, `UPDATE jobs SET shard = $2, updated = now() WHERE id = $1`, id, shard)
	return err
}

// Touch bumps a job's updated time.
func (r *Jobs) Touch(ctx context.Context, id string) error {
	_, err := r.db.ExecContext(ctx, `UPDATE jobs SET updated = now() WHERE id = $1`, id)
	return err
}

// AppendLog adds journal lines to a job.
func (r *Jobs) AppendLog(ctx context.Context, id string, lines []string) error {
	for _, l := range lines {
		if _, err := r.db.ExecContext(ctx, `INSERT INTO journal (job_id, line, at) VALUES ($1, $2, now())`, id, l); err != nil {
			return err
		}
	}
	return nil
}

// Expire marks a job expired.
func (r *Jobs) Expire(ctx context.Context, id string) error {
	_, err := r.db.ExecContext(ctx, `UPDATE jobs SET state = 'expired' WHERE id = $1 AND state <> 'done'`, id)
	return err
}

// Renew extends a job's lease.
func (r *Jobs) Renew(ctx context.Context, id string, ttl time.Duration) error {
	_, err := r.db.ExecContext(ctx, `UPDATE jobs SET lease_until = now() + $2 * interval '1 second' WHERE id = $1`, id, int64(ttl/time.Second))
	return err
}

// ExpireStale expires every job whose lease ran out.
func (r *Jobs) ExpireStale(ctx context.Context) (int64, error) {
	res, err := r.db.ExecContext(ctx, `UPDATE jobs SET state = 'expired' WHERE lease_until < now() AND state = 'running'`)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// Queue is the lanes of the job queue.
type Queue struct{ db *sql.DB }

// NewQueue returns the queue.
func NewQueue(db *sql.DB) *Queue { return &Queue{db: db} }

// Push appends a job to a lane.
func (q *Queue) Push(ctx context.Context, lane, id string) error {
	_, err := q.db.ExecContext(ctx, `INSERT INTO queue (lane, job_id, at) VALUES ($1, $2, now())`, lane, id)
	return err
}

// Drain removes every entry of a lane and returns how many there were.
func (q *Queue) Drain(ctx context.Context, lane string) (int64, error) {
	res, err := q.db.ExecContext(ctx, `DELETE FROM queue WHERE lane = $1`, lane)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// Pause stops a lane from being consumed.
func (q *Queue) Pause(ctx context.Context, lane string) error {
	_, err := q.db.ExecContext(ctx, `UPDATE lanes SET paused = true WHERE name = $1`, lane)
	return err
}

// Resume lets a lane be consumed again.
func (q *Queue) Resume(ctx context.Context, lane string) error {
	_, err := q.db.ExecContext(ctx, `UPDATE lanes SET paused = false WHERE name = $1`, lane)
	return err
}

// Depth counts the entries of a lane.
func (q *Queue) Depth(ctx context.Context, lane string) (int64, error) {
	var n int64
	err := q.db.QueryRowContext(ctx, `SELECT count(*) FROM queue WHERE lane = $1`, lane).Scan(&n)
	return n, err
}

// Locks are Postgres advisory locks.
type Locks struct{ db *sql.DB }

// NewLocks returns the lock table.
func NewLocks(db *sql.DB) *Locks { return &Locks{db: db} }

// Acquire waits for the advisory lock of key.
func (l *Locks) Acquire(ctx context.Context, key string) error {
	_, err := l.db.ExecContext(ctx, `SELECT pg_advisory_lock(hashtext($1))`, key)
	return err
}

// Release gives the advisory lock of key back.
func (l *Locks) Release(ctx context.Context, key string) error {
	_, err := l.db.ExecContext(ctx, `SELECT pg_advisory_unlock(hashtext($1))`, key)
	return err
}

// Stock is the local table of holds the runner puts on inventory.
type Stock struct{ db *sql.DB }

// NewStock returns the holds table.
func NewStock(db *sql.DB) *Stock { return &Stock{db: db} }

// Hold puts a hold of qty units of sku for a job.
func (s *Stock) Hold(ctx context.Context, sku string, qty int64, jobID string) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO holds (sku, qty, job_id) VALUES ($1, $2, $3)`, sku, qty, jobID)
	return err
}

// Unhold removes a job's hold on sku.
func (s *Stock) Unhold(ctx context.Context, sku, jobID string) error {
	_, err := s.db.ExecContext(ctx, `DELETE FROM holds WHERE sku = $1 AND job_id = $2`, sku, jobID)
	return err
}

// Count returns the units of sku on hold.
func (s *Stock) Count(ctx context.Context, sku string) (int64, error) {
	var n int64
	err := s.db.QueryRowContext(ctx, `SELECT coalesce(sum(qty), 0) FROM holds WHERE sku = $1`, sku).Scan(&n)
	return n, err
}

// CountForTenant returns the units a tenant's jobs hold.
func (s *Stock) CountForTenant(ctx context.Context, tenant string) (int64, error) {
	var n int64
	err := s.db.QueryRowContext(ctx, `SELECT coalesce(sum(h.qty), 0) FROM holds h JOIN jobs j ON j.id = h.job_id WHERE j.tenant = $1`, tenant).Scan(&n)
	return n, err
}

// Adjust books a local correction of sku.
func (s *Stock) Adjust(ctx context.Context, sku string, delta int64) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO corrections (sku, delta, at) VALUES ($1, $2, now())`, sku, delta)
	return err
}

// Shard is one partition of the jobs table.
type Shard struct {
	Name string
	db   *sql.DB
}

// NewShard returns a shard.
func NewShard(name string, db *sql.DB) *Shard { return &Shard{Name: name, db: db} }

// Sync refreshes the shard's materialised counters.
func (s *Shard) Sync(ctx context.Context) error {
	_, err := s.db.ExecContext(ctx, `REFRESH MATERIALIZED VIEW CONCURRENTLY jobs_counts_`+s.Name)
	return err
}
