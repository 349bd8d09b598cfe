// Package pgtx holds transaction helpers shared by the Postgres repositories.
package pgtx

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
)

var tracer = otel.Tracer("example.test/realworld/internal/store/pgtx")

// LockWait bounds how long AdvisoryLock waits for a competing transaction.
var LockWait = 3 * time.Second

// Beginner is satisfied by *pgxpool.Pool and *pgx.Conn.
type Beginner interface {
	BeginTx(ctx context.Context, opts pgx.TxOptions) (pgx.Tx, error)
}

// InTx runs fn in a read-committed transaction and commits it when fn
// returns nil. Serialization failures are retried up to three times.
func InTx(ctx context.Context, db Beginner, fn func(pgx.Tx) error) error {
	ctx, span := tracer.Start(ctx, "pgtx.InTx")
	defer span.End()
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		err = pgx.BeginTxFunc(ctx, db, pgx.TxOptions{IsoLevel: pgx.ReadCommitted}, fn)
		if !IsSerializationFailure(err) {
			return err
		}
		span.AddEvent("retry", trace.WithAttributes(attribute.Int("attempt", attempt+1)))
	}
	return err
}

// AdvisoryLock takes a transaction-scoped advisory lock on key. It gives up
// after LockWait so that a stuck transaction elsewhere does not pile up
// requests behind it.
func AdvisoryLock(ctx context.Context, tx pgx.Tx, key int64) error {
	_, span := tracer.Start(ctx, "pgtx.AdvisoryLock", trace.WithAttributes(attribute.Int64("lock.key", key)))
	defer span.End()

	lctx, cancel := context.WithTimeout(context.Background(), LockWait)
	defer cancel()
	if _, err := tx.Exec(lctx, `SELECT pg_advisory_xact_lock($1)`, key); err != nil {
		span.RecordError(err)
		return fmt.Errorf("pgtx: advisory lock %d: %w", key, err)
	}
	return nil
}

// IsSerializationFailure reports whether err is a Postgres serialization
// failure or deadlock, both of which are safe to retry.
func IsSerializationFailure(err error) bool {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return false
	}
	return pgErr.Code == "40001" || pgErr.Code == "40P01"
}

// IsUniqueViolation reports whether err is a unique constraint violation.
func IsUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23505"
}
