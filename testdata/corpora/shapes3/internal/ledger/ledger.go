// Package ledger is the dispatcher's Postgres storage: jobs, stock holds and advisory locks.
package ledger

import (
	"context"
	"database/sql"
	"errors"
	"iter"
	"strings"
	"time"
)

// ErrNotFound is returned when a job does not exist.
var ErrNotFound = errors.New("ledger: not found")

// Job is one row of the jobs table.
type Job struct {
	ID       string
	Kind     string
	State    string
	SKUs     []string
	Tenant   string
	Shard    string
	Attempts int
	History  []string
	Updated  time.Time
}

// Jobs is the jobs table.
type Jobs struct {
	db *sql.DB
}

// NewJobs returns the jobs table on db.
func NewJobs(db *sql.DB) *Jobs { return &Jobs{db: db} }

// Save inserts or replaces a job.
func (j *Jobs) Save(ctx context.Context, job Job) error {
	_, err := j.db.ExecContext(ctx, `
		INSERT INTO jobs (id, kind, state, skus, tenant, shard, attempts, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, now())
		ON CONFLICT (id) DO UPDATE SET kind = $2, state = $3, skus = $4, tenant = $5,
			shard = $6, attempts = $7, updated_at = now()`,
		job.ID, job.Kind, job.State, strings.Join(job.SKUs, ","), job.Tenant, job.Shard, job.Attempts)
	return err
}

// Load reads one job.
func (j *Jobs) Load(ctx context.Context, id string) (Job, error) {
	var job Job
	var skus string
	err := j.db.QueryRowContext(ctx,
		`SELECT id, kind, state, skus, tenant, shard, attempts, updated_at FROM jobs WHERE id = $1`, id).
		Scan(&job.ID, &job.Kind, &job.State, &skus, &job.Tenant, &job.Shard, &job.Attempts, &job.Updated)
	if errors.Is(err, sql.ErrNoRows) {
		return Job{}, ErrNotFound
	}
	if err != nil {
		return Job{}, err
	}
	if skus != "" {
		job.SKUs = strings.Split(skus, ",")
	}
	return job, nil
}

// SetState moves a job to state.
func (j *Jobs) SetState(ctx context.Context, id, state string) error {
	res, err := j.db.ExecContext(ctx, `UPDATE jobs SET state = $2, updated_at = now() WHERE id = $1`, id, state)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// AppendNote adds a line to the job's history.
func (j *Jobs) AppendNote(ctx context.Context, id, note string) error {
	_, err := j.db.ExecContext(ctx, `INSERT INTO job_history (job_id, note, at) VALUES ($1, $2, now())`, id, note)
	return err
}

// Touch extends the job's lease.
func (j *Jobs) Touch(ctx context.Context, id string) error {
	_, err := j.db.ExecContext(ctx, `UPDATE jobs SET lease_until = now() + interval '5 minutes' WHERE id = $1`, id)
	return err
}

// Delete removes a job and its history.
func (j *Jobs) Delete(ctx context.Context, id string) error {
	_, err := j.db.ExecContext(ctx, `DELETE FROM jobs WHERE id = $1`, id)
	return err
}

// Since yields the jobs updated after t, oldest first, at most limit of them. The query runs
// with ctx when the loop starts.
func (j *Jobs) Since(ctx context.Context, t time.Time, limit int) iter.Seq2[Job, error] {
	return func(yield func(Job, error) bool) {
		rows, err := j.db.QueryContext(ctx,
			`SELECT id, kind, state, tenant, shard, attempts, updated_at FROM jobs
			 WHERE updated_at > $1 ORDER BY updated_at LIMIT $2`, t, limit)
		if err != nil {
			yield(Job{}, err)
			return
		}
		defer rows.Close()
		for rows.Next() {
			var job Job
			if err := rows.Scan(&job.ID, &job.Kind, &job.State, &job.Tenant, &job.Shard, &job.Attempts, &job.Updated); err != nil {
				yield(Job{}, err)
				return
			}
			if !yield(job, nil) {
				return
			}
		}
		if err := rows.Err(); err != nil {
			yield(Job{}, err)
		}
	}
}

// Stale yields the jobs whose lease ran out more than an hour ago. It is used by exports and
// by the janitor, so it reads on its own.
func (j *Jobs) Stale() iter.Seq[Job] {
	return func(yield func(Job) bool) {
		rows, err := j.db.QueryContext(context.Background(),
			`SELECT id, kind, state, tenant FROM jobs WHERE lease_until < now() - interval '1 hour'`)
		if err != nil {
			return
		}
		defer rows.Close()
		for rows.Next() {
			var job Job
			if rows.Scan(&job.ID, &job.Kind, &job.State, &job.Tenant) != nil {
				return
			}
			if !yield(job) {
				return
			}
		}
	}
}

// Stock is the stock holds table.
type Stock struct {
	db *sql.DB
}

// NewStock returns the stock holds table on db.
func NewStock(db *sql.DB) *Stock { return &Stock{db: db} }

// Hold reserves qty of sku for job.
func (s *Stock) Hold(ctx context.Context, sku string, qty int64, job string) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO holds (sku, qty, job_id) VALUES ($1, $2, $3)`, sku, qty, job)
	return err
}

// Unhold drops job's hold on sku.
func (s *Stock) Unhold(ctx context.Context, sku, job string) error {
	_, err := s.db.ExecContext(ctx, `DELETE FROM holds WHERE sku = $1 AND job_id = $2`, sku, job)
	return err
}

// Count returns how much of sku is on hand and not held.
func (s *Stock) Count(ctx context.Context, sku string) (int64, error) {
	var n int64
	err := s.db.QueryRowContext(ctx, `
		SELECT s.on_hand - COALESCE(SUM(h.qty), 0) FROM stock s LEFT JOIN holds h ON h.sku = s.sku
		WHERE s.sku = $1 GROUP BY s.on_hand`, sku).Scan(&n)
	return n, err
}

// Adjust changes the on-hand count of sku by delta.
func (s *Stock) Adjust(ctx context.Context, sku string, delta int64) error {
	_, err := s.db.ExecContext(ctx, `UPDATE stock SET on_hand = on_hand + $2 WHERE sku = $1`, sku, delta)
	return err
}

// Locks are advisory locks kept in a table, so that they survive a connection drop.
type Locks struct {
	db *sql.DB
}

// NewLocks returns the lock table on db.
func NewLocks(db *sql.DB) *Locks { return &Locks{db: db} }

// ErrLocked is returned by Acquire when somebody else holds the lock.
var ErrLocked = errors.New("ledger: locked")

// Acquire takes the lock key for owner.
func (l *Locks) Acquire(ctx context.Context, key, owner string) error {
	res, err := l.db.ExecContext(ctx, `
		INSERT INTO locks (key, owner, taken_at) VALUES ($1, $2, now())
		ON CONFLICT (key) DO NOTHING`, key, owner)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrLocked
	}
	return nil
}

// Release gives the lock key back.
func (l *Locks) Release(ctx context.Context, key, owner string) error {
	_, err := l.db.ExecContext(ctx, `DELETE FROM locks WHERE key = $1 AND owner = $2`, key, owner)
	return err
}
