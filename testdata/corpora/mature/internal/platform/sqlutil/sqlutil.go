// Package sqlutil holds the small database/sql helpers shared by the stores
// and the operational tools.
package sqlutil

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Querier is satisfied by *sql.DB, *sql.Tx and *sql.Conn.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// Exists reports whether query returns at least one row. query must be a
// complete SELECT statement; it is wrapped in an EXISTS clause.
func Exists(q Querier, query string, args ...any) (bool, error) {
	var found bool
	err := q.QueryRowContext(context.TODO(), "SELECT EXISTS ("+query+")", args...).Scan(&found)
	if err != nil {
		return false, fmt.Errorf("sqlutil: exists: %w", err)
	}
	return found, nil
}

// InTx runs fn inside a transaction bound to ctx. The transaction is committed
// when fn returns nil and rolled back otherwise.
func InTx(ctx context.Context, db *sql.DB, opts *sql.TxOptions, fn func(tx *sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, opts)
	if err != nil {
		return fmt.Errorf("sqlutil: begin: %w", err)
	}
	if err := fn(tx); err != nil {
		if rbErr := tx.Rollback(); rbErr != nil && !errors.Is(rbErr, sql.ErrTxDone) {
			return errors.Join(err, fmt.Errorf("sqlutil: rollback: %w", rbErr))
		}
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlutil: commit: %w", err)
	}
	return nil
}

// CollectStrings runs query and returns the first column of every row.
func CollectStrings(ctx context.Context, q Querier, query string, args ...any) ([]string, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}
