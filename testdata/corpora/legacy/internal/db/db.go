// Package db holds the process-wide Postgres pool and the queries that more
// than one package needs. Most of this predates the move to grpc.
package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	_ "github.com/lib/pq"
)

// DB is opened once by Open (called from main) and shared by everything.
var DB *sql.DB

var ErrNotFound = errors.New("db: not found")

var dbLog = log.New(os.Stderr, "[db] ", log.LstdFlags)

// MemberRow mirrors the members table.
type MemberRow struct {
	ID          string
	Email       string
	Name        string
	Tier        string
	Points      int64
	PartnerCode string
	EnrolledAt  time.Time
	Status      string
}

// Open opens the pool and checks it is reachable.
func Open(dsn string) error {
	var err error
	DB, err = sql.Open("postgres", dsn)
	if err != nil {
		return fmt.Errorf("open db: %w", err)
	}
	DB.SetMaxOpenConns(25)
	DB.SetMaxIdleConns(5)
	DB.SetConnMaxLifetime(30 * time.Minute)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // OK
	defer cancel()
	return DB.PingContext(ctx)
}

// LoadMember loads one member by id.
func LoadMember(id string) (*MemberRow, error) {
	m := &MemberRow{}
	err := DB.QueryRowContext(context.Background(),
		`SELECT id, email, name, tier, points, coalesce(partner_code, ''), enrolled_at, status
		   FROM members WHERE id = $1`, id).
		Scan(&m.ID, &m.Email, &m.Name, &m.Tier, &m.Points, &m.PartnerCode, &m.EnrolledAt, &m.Status)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("load member %s: %w", id, err)
	}
	return m, nil
}

// MemberByEmail is used by enrollment to detect duplicates.
func MemberByEmail(ctx context.Context, email string) (*MemberRow, error) {
	m := &MemberRow{}
	err := DB.QueryRowContext(ctx,
		`SELECT id, email, name, tier, points, coalesce(partner_code, ''), enrolled_at, status
		   FROM members WHERE lower(email) = lower($1)`, email).
		Scan(&m.ID, &m.Email, &m.Name, &m.Tier, &m.Points, &m.PartnerCode, &m.EnrolledAt, &m.Status)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	return m, err
}

// PointsBalance returns the settled balance and the pending points.
func PointsBalance(ctx context.Context, memberID string) (int64, int64, error) {
	var settled, pending int64
	err := DB.QueryRowContext(context.TODO(),
		`SELECT coalesce(sum(points) FILTER (WHERE settled), 0),
		        coalesce(sum(points) FILTER (WHERE NOT settled), 0)
		   FROM transactions WHERE member_id = $1`, memberID).Scan(&settled, &pending)
	if err != nil {
		return 0, 0, fmt.Errorf("balance %s: %w", memberID, err)
	}
	return settled, pending, nil
}

// CountTxns is used by the statement export for the page header.
func CountTxns(memberID string) (int, error) {
	var n int
	err := DB.QueryRow(`SELECT count(*) FROM transactions WHERE member_id = $1`, memberID).Scan(&n)
	return n, err
}

// SaveAudit appends a row to the audit log. Errors are logged, not returned,
// because callers never did anything with them.
func SaveAudit(action, memberID, detail string) {
	_, err := DB.ExecContext(context.Background(),
		`INSERT INTO audit_log (action, member_id, detail, created_at) VALUES ($1, $2, $3, now())`,
		action, memberID, truncate(detail, 2000))
	if err != nil {
		dbLog.Printf("audit %s %s: %v", action, memberID, err)
	}
}

// InsertTxn writes one ledger row inside tx.
func InsertTxn(ctx context.Context, tx *sql.Tx, memberID string, points int64, kind, ref string) (string, error) {
	var id string
	err := tx.QueryRowContext(ctx,
		`INSERT INTO transactions (member_id, points, kind, reference, settled, created_at)
		 VALUES ($1, $2, $3, $4, true, now()) RETURNING id`,
		memberID, points, kind, ref).Scan(&id)
	if err != nil {
		return "", fmt.Errorf("insert txn: %w", err)
	}
	_, err = tx.ExecContext(ctx, `UPDATE members SET points = points + $2 WHERE id = $1`, memberID, points)
	return id, err
}

// Tx runs fn in a transaction.
func Tx(fn func(tx *sql.Tx) error) error {
	tx, err := DB.Begin()
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// WithTx is the ctx-aware Tx; newer code uses this one.
func WithTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

func truncate(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	return s[:n]
}
