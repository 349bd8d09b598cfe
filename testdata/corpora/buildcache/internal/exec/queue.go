package exec

import (
	"context"
	"database/sql"
	"sync"
	"time"

	"example.test/buildcache/gen/bcv1"
)

type job struct {
	op     string
	action *bcv1.Digest
}

// Queue hands queued actions to bots.
type Queue struct {
	db   *sql.DB
	mu   sync.Mutex
	jobs chan job
}

// NewQueue returns an empty queue.
func NewQueue(db *sql.DB) *Queue { return &Queue{db: db, jobs: make(chan job, 1024)} }

// Enqueue adds an action; it never blocks the request for long.
func (q *Queue) Enqueue(op string, action *bcv1.Digest) bool {
	select {
	case q.jobs <- job{op: op, action: action}:
		return true
	default:
		return false
	}
}

// Lease waits for a job for bot, up to 30 seconds.
func (q *Queue) Lease(ctx context.Context, bot string) (*bcv1.BotSession, error) {
	t := time.NewTimer(30 * time.Second)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-t.C:
		return &bcv1.BotSession{BotId: bot}, nil
	case j := <-q.jobs:
		if _, err := q.db.ExecContext(ctx, `UPDATE ops SET bot = $1 WHERE name = $2`, bot, j.op); err != nil {
			return nil, err
		}
		return &bcv1.BotSession{BotId: bot, Lease: j.op, Action: j.action}, nil
	}
}
