package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"go.opentelemetry.io/otel/attribute"
)

// OutboxEvent is an event written in the same transaction as the state change
// it describes, and published to Kafka later by the relay.
type OutboxEvent struct {
	ID        int64
	Topic     string
	Key       string
	Payload   []byte
	Headers   map[string]string
	CreatedAt time.Time
}

func insertOutbox(ctx context.Context, tx pgx.Tx, evt OutboxEvent) error {
	if evt.Topic == "" {
		return nil
	}
	_, err := tx.Exec(ctx, `INSERT INTO outbox (topic, key, payload, headers) VALUES ($1, $2, $3, $4)`,
		evt.Topic, evt.Key, evt.Payload, evt.Headers)
	if err != nil {
		return fmt.Errorf("insert outbox: %w", err)
	}
	return nil
}

// ClaimOutbox leases up to limit unpublished events for lease. Events whose
// lease ran out are handed out again, so a crashed relay loses nothing.
func (r *Repo) ClaimOutbox(ctx context.Context, limit int, lease time.Duration) ([]OutboxEvent, error) {
	ctx, span := r.start(ctx, "store.ClaimOutbox", attribute.Int("limit", limit))
	defer span.End()
	rows, err := r.pool.Query(ctx, `
		UPDATE outbox SET leased_until = now() + $2::interval
		WHERE id IN (
			SELECT id FROM outbox
			WHERE published_at IS NULL AND (leased_until IS NULL OR leased_until < now())
			ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
		RETURNING id, topic, key, payload, coalesce(headers, '{}'::jsonb), created_at`, limit, lease.String())
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (OutboxEvent, error) {
		var e OutboxEvent
		err := row.Scan(&e.ID, &e.Topic, &e.Key, &e.Payload, &e.Headers, &e.CreatedAt)
		return e, err
	})
}

// MarkPublished marks events as published.
func (r *Repo) MarkPublished(ctx context.Context, ids []int64) error {
	ctx, span := r.start(ctx, "store.MarkPublished", attribute.Int("count", len(ids)))
	defer span.End()
	_, err := r.pool.Exec(ctx, `UPDATE outbox SET published_at = now(), leased_until = NULL WHERE id = ANY($1)`, ids)
	return err
}

// Requeue marks events of topic (all topics when empty) created since since as
// unpublished again and returns how many there were.
func (r *Repo) Requeue(ctx context.Context, since time.Time, topic string) (int64, error) {
	ctx, span := r.start(ctx, "store.Requeue")
	defer span.End()
	tag, err := r.pool.Exec(ctx, `
		UPDATE outbox SET published_at = NULL, leased_until = NULL
		WHERE created_at >= $1 AND ($2 = '' OR topic = $2)`, since, topic)
	if err != nil {
		return 0, err
	}
	return tag.RowsAffected(), nil
}

// ReconcileStats is what a reconcile run found.
type ReconcileStats struct {
	Settlements int
	Mismatched  int
	Orphaned    int
	Released    int
}

// StartReconcileRun records the start of a reconcile run for day.
func (r *Repo) StartReconcileRun(ctx context.Context, day string) (string, error) {
	ctx, span := r.start(ctx, "store.StartReconcileRun")
	defer span.End()
	var id string
	err := r.pool.QueryRow(ctx, `INSERT INTO reconcile_runs (day, started_at) VALUES ($1, now()) RETURNING id`, day).Scan(&id)
	return id, err
}

// FinishReconcileRun records the outcome of a reconcile run.
func (r *Repo) FinishReconcileRun(ctx context.Context, runID string, stats ReconcileStats, runErr error) error {
	ctx, span := r.start(ctx, "store.FinishReconcileRun")
	defer span.End()
	msg := ""
	if runErr != nil {
		msg = runErr.Error()
	}
	_, err := r.pool.Exec(ctx, `
		UPDATE reconcile_runs SET finished_at = now(), settlements = $2, mismatched = $3, orphaned = $4, released = $5, error = nullif($6, '')
		WHERE id = $1`, runID, stats.Settlements, stats.Mismatched, stats.Orphaned, stats.Released, msg)
	return err
}
