package ledger

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"time"

	dbx "example.test/payments/internal/platform/db"
)

// Repo is the ledger's database/sql repository.
type Repo struct {
	db *sql.DB
}

// NewRepo returns a repository on pool.
func NewRepo(pool *sql.DB) *Repo {
	return &Repo{db: pool}
}

var schema = []string{
	`CREATE TABLE IF NOT EXISTS payments (id text PRIMARY KEY, merchant_id text NOT NULL, currency text NOT NULL,
		amount_minor bigint NOT NULL, captured_minor bigint NOT NULL DEFAULT 0, status text NOT NULL,
		card_fingerprint text, idempotency_key text, webhook_url text, created_at timestamptz NOT NULL DEFAULT now(),
		UNIQUE (merchant_id, idempotency_key))`,
	`CREATE TABLE IF NOT EXISTS refunds (id text PRIMARY KEY, payment_id text NOT NULL REFERENCES payments(id),
		currency text NOT NULL, amount_minor bigint NOT NULL, reason text, acquirer_ref text, created_at timestamptz NOT NULL)`,
	`CREATE TABLE IF NOT EXISTS entries (id text PRIMARY KEY, account_id text NOT NULL, currency text NOT NULL,
		amount_minor bigint NOT NULL, reference text NOT NULL, business_date date NOT NULL, posted_at timestamptz NOT NULL,
		closed_at timestamptz)`,
	`CREATE TABLE IF NOT EXISTS balances (account_id text PRIMARY KEY, currency text NOT NULL,
		available_minor bigint NOT NULL, pending_minor bigint NOT NULL, as_of timestamptz NOT NULL)`,
	`CREATE TABLE IF NOT EXISTS merchant_limits (merchant_id text PRIMARY KEY, max_amount_minor bigint NOT NULL,
		daily_count_max int NOT NULL, blocked boolean NOT NULL DEFAULT false)`,
	`CREATE TABLE IF NOT EXISTS recon_queue (transfer_id text PRIMARY KEY, enqueued_at timestamptz NOT NULL DEFAULT now())`,
	`CREATE TABLE IF NOT EXISTS flagged_cards (fingerprint text PRIMARY KEY, flagged_at timestamptz NOT NULL DEFAULT now())`,
}

// Migrate creates the tables. It runs once at start-up, before the server listens.
func (r *Repo) Migrate() error {
	for _, stmt := range schema {
		if _, err := r.db.Exec(stmt); err != nil { // OK
			return fmt.Errorf("migrate: %w", err)
		}
	}
	return nil
}

const paymentColumns = `id, merchant_id, currency, amount_minor, captured_minor, status,
	coalesce(card_fingerprint, ''), coalesce(idempotency_key, ''), coalesce(webhook_url, ''), created_at`

func scanPayment(row interface{ Scan(...any) error }) (*Payment, error) {
	var p Payment
	var st string
	err := row.Scan(&p.ID, &p.MerchantID, &p.Currency, &p.AmountMinor, &p.CapturedMinor, &st,
		&p.CardFingerprint, &p.IdempotencyKey, &p.WebhookURL, &p.CreatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	p.Status = Status(st)
	return &p, nil
}

// GetPayment loads one payment.
func (r *Repo) GetPayment(ctx context.Context, id string) (*Payment, error) {
	row := r.db.QueryRowContext(ctx, `SELECT `+paymentColumns+` FROM payments WHERE id = $1`, id)
	p, err := scanPayment(row)
	if err != nil {
		return nil, fmt.Errorf("get payment %s: %w", id, err)
	}
	return p, nil
}

// FindByIdempotencyKey returns the payment created earlier with the same key, or nil.
func (r *Repo) FindByIdempotencyKey(ctx context.Context, merchantID, key string) (*Payment, error) {
	if key == "" {
		return nil, nil
	}
	row := r.db.QueryRowContext(ctx,
		`SELECT `+paymentColumns+` FROM payments WHERE merchant_id = $1 AND idempotency_key = $2`, merchantID, key)
	p, err := scanPayment(row)
	if errors.Is(err, ErrNotFound) {
		return nil, nil
	}
	return p, err
}

// InsertPayment stores a new payment.
func (r *Repo) InsertPayment(ctx context.Context, p *Payment) error {
	_, err := r.db.ExecContext(ctx,
		`INSERT INTO payments (id, merchant_id, currency, amount_minor, status, card_fingerprint, idempotency_key, webhook_url, created_at)
		 VALUES ($1, $2, $3, $4, $5, $6, nullif($7, ''), nullif($8, ''), $9)`,
		p.ID, p.MerchantID, p.Currency, p.AmountMinor, string(p.Status), p.CardFingerprint, p.IdempotencyKey, p.WebhookURL, p.CreatedAt)
	if err != nil {
		return fmt.Errorf("insert payment %s: %w", p.ID, err)
	}
	return nil
}

// UpdateStatus moves a payment to st.
func (r *Repo) UpdateStatus(ctx context.Context, id string, st Status) error {
	res, err := r.db.ExecContext(ctx, `UPDATE payments SET status = $1 WHERE id = $2`, string(st), id)
	if err != nil {
		return fmt.Errorf("update payment %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// ListPayments pages through a merchant's payments, newest first. The page
// token is the id of the last payment of the previous page.
func (r *Repo) ListPayments(ctx context.Context, merchantID, pageToken string, limit int) ([]*Payment, string, error) {
	rows, err := r.db.QueryContext(ctx,
		`SELECT `+paymentColumns+` FROM payments
		 WHERE merchant_id = $1 AND ($2 = '' OR id < $2)
		 ORDER BY id DESC LIMIT $3`, merchantID, pageToken, limit+1)
	if err != nil {
		return nil, "", fmt.Errorf("list payments: %w", err)
	}
	defer rows.Close()
	var out []*Payment
	for rows.Next() {
		p, err := scanPayment(rows)
		if err != nil {
			return nil, "", err
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, "", err
	}
	next := ""
	if len(out) > limit {
		out = out[:limit]
		next = out[limit-1].ID
	}
	return out, next, nil
}

// LoadMerchantLimits returns the merchant's limits, or permissive defaults
// for merchants without a row.
func (r *Repo) LoadMerchantLimits(merchantID string) (Limits, error) {
	l := Limits{MaxAmountMinor: 1_000_000, DailyCountMax: 10_000}
	err := dbx.Lookup(r.db,
		`SELECT max_amount_minor, daily_count_max, blocked FROM merchant_limits WHERE merchant_id = $1`,
		[]any{merchantID}, &l.MaxAmountMinor, &l.DailyCountMax, &l.Blocked)
	if errors.Is(err, sql.ErrNoRows) {
		return l, nil
	}
	if err != nil {
		return Limits{}, fmt.Errorf("merchant limits %s: %w", merchantID, err)
	}
	return l, nil
}

// FlagCard marks a card fingerprint as fraudulent.
func (r *Repo) FlagCard(ctx context.Context, fingerprint string) error {
	_, err := r.db.ExecContext(ctx,
		`INSERT INTO flagged_cards (fingerprint) VALUES ($1) ON CONFLICT DO NOTHING`, fingerprint)
	return err
}

// RecordRefund stores the refund and moves the payment to refunded, atomically.
func (r *Repo) RecordRefund(ctx context.Context, rf Refund) error {
	return dbx.InTx(ctx, r.db, nil, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO refunds (id, payment_id, currency, amount_minor, reason, acquirer_ref, created_at)
			 VALUES ($1, $2, $3, $4, $5, $6, $7)`,
			rf.ID, rf.PaymentID, rf.Currency, rf.AmountMinor, rf.Reason, rf.AcquirerRef, rf.CreatedAt); err != nil {
			return fmt.Errorf("insert refund: %w", err)
		}
		_, err := tx.ExecContext(ctx, `UPDATE payments SET status = $1 WHERE id = $2`, string(StatusRefunded), rf.PaymentID)
		return err
	})
}

func accountLockKey(account string) int64 {
	h := fnv.New64a()
	h.Write([]byte(account))
	return int64(h.Sum64() & 0x7fffffffffffffff)
}

// NewID returns a random identifier with the given prefix.
func NewID(prefix string) string {
	var b [10]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	return prefix + "_" + hex.EncodeToString(b[:])
}

// PostTransfer posts both legs of t under an advisory lock on the debited
// account, so concurrent transfers cannot overdraw it.
func (r *Repo) PostTransfer(ctx context.Context, t Transfer) (string, time.Time, error) {
	tx, err := r.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelReadCommitted})
	if err != nil {
		return "", time.Time{}, fmt.Errorf("begin transfer: %w", err)
	}
	defer tx.Rollback()

	if err := dbx.AdvisoryLock(tx, accountLockKey(t.From)); err != nil {
		return "", time.Time{}, err
	}
	var available int64
	err = tx.QueryRowContext(ctx, `SELECT available_minor FROM balances WHERE account_id = $1`, t.From).Scan(&available)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("balance of %s: %w", t.From, err)
	}
	if available < t.AmountMinor {
		return "", time.Time{}, fmt.Errorf("insufficient funds in %s", t.From)
	}
	id := NewID("trf")
	now := time.Now().UTC()
	for _, leg := range []struct {
		account string
		amount  int64
	}{{t.From, -t.AmountMinor}, {t.To, t.AmountMinor}} {
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO entries (id, account_id, currency, amount_minor, reference, business_date, posted_at)
			 VALUES ($1, $2, $3, $4, $5, $6::date, $6)`,
			NewID("ent"), leg.account, t.Currency, leg.amount, id, now); err != nil {
			return "", time.Time{}, fmt.Errorf("post leg: %w", err)
		}
		if _, err := tx.ExecContext(ctx,
			`UPDATE balances SET available_minor = available_minor + $1, as_of = $2 WHERE account_id = $3`,
			leg.amount, now, leg.account); err != nil {
			return "", time.Time{}, fmt.Errorf("update balance: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return "", time.Time{}, fmt.Errorf("commit transfer: %w", err)
	}
	return id, now, nil
}

// EnqueueRecon schedules a posted transfer for reconciliation against the bank file.
func (r *Repo) EnqueueRecon(ctx context.Context, transferID string) error {
	_, err := r.db.ExecContext(ctx, `INSERT INTO recon_queue (transfer_id) VALUES ($1) ON CONFLICT DO NOTHING`, transferID)
	return err
}

// Balance reads the materialised balance of an account.
func (r *Repo) Balance(ctx context.Context, accountID string) (*Balance, error) {
	qctx, cancel := dbx.WithQueryTimeout(ctx, 0)
	defer cancel()
	var b Balance
	err := r.db.QueryRowContext(qctx,
		`SELECT account_id, currency, available_minor, pending_minor, as_of FROM balances WHERE account_id = $1`, accountID).
		Scan(&b.AccountID, &b.Currency, &b.AvailableMinor, &b.PendingMinor, &b.AsOf)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("balance %s: %w", accountID, err)
	}
	return &b, nil
}

// RefreshBalance recomputes an account's balance from its entries.
func (r *Repo) RefreshBalance(ctx context.Context, accountID string) (*Balance, error) {
	_, err := r.db.ExecContext(ctx,
		`UPDATE balances SET available_minor = (SELECT coalesce(sum(amount_minor), 0) FROM entries WHERE account_id = $1),
		 as_of = now() WHERE account_id = $1`, accountID)
	if err != nil {
		return nil, fmt.Errorf("refresh balance %s: %w", accountID, err)
	}
	return r.Balance(ctx, accountID)
}

// CloseDay marks every entry of the business date as closed and returns how many were.
func (r *Repo) CloseDay(ctx context.Context, businessDate string) (int64, error) {
	res, err := r.db.ExecContext(ctx,
		`UPDATE entries SET closed_at = now() WHERE business_date = $1 AND closed_at IS NULL`, businessDate)
	if err != nil {
		return 0, fmt.Errorf("close day %s: %w", businessDate, err)
	}
	return res.RowsAffected()
}

// Entries calls fn for every entry of the account on the business date, in posting order.
func (r *Repo) Entries(ctx context.Context, accountID, businessDate string, fn func(Entry) error) error {
	rows, err := r.db.QueryContext(ctx,
		`SELECT id, account_id, currency, amount_minor, reference, posted_at FROM entries
		 WHERE ($1 = '' OR account_id = $1) AND business_date = $2 ORDER BY posted_at`, accountID, businessDate)
	if err != nil {
		return fmt.Errorf("entries: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var e Entry
		if err := rows.Scan(&e.ID, &e.AccountID, &e.Currency, &e.AmountMinor, &e.Reference, &e.PostedAt); err != nil {
			return err
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	return rows.Err()
}

// ImportEntry inserts an entry from an external file; it reports false when
// the entry was already present.
func (r *Repo) ImportEntry(ctx context.Context, e Entry) (bool, error) {
	res, err := r.db.ExecContext(ctx,
		`INSERT INTO entries (id, account_id, currency, amount_minor, reference, business_date, posted_at)
		 VALUES ($1, $2, $3, $4, $5, $6::date, $6) ON CONFLICT (id) DO NOTHING`,
		e.ID, e.AccountID, e.Currency, e.AmountMinor, e.Reference, e.PostedAt)
	if err != nil {
		return false, fmt.Errorf("import entry %s: %w", e.ID, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// StaleAuthorizations returns authorized payments older than age.
func (r *Repo) StaleAuthorizations(ctx context.Context, age time.Duration) ([]string, error) {
	rows, err := r.db.QueryContext(ctx,
		`SELECT id FROM payments WHERE status = $1 AND created_at < $2`, string(StatusAuthorized), time.Now().Add(-age))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// ExpireAuthorizations moves authorizations older than age to expired.
func (r *Repo) ExpireAuthorizations(ctx context.Context, age time.Duration) (int64, error) {
	res, err := r.db.ExecContext(ctx,
		`UPDATE payments SET status = $1 WHERE status = $2 AND created_at < $3`,
		string(StatusExpired), string(StatusAuthorized), time.Now().Add(-age))
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
