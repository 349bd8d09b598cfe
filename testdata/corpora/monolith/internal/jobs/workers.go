package jobs

import (
	"context"
	"database/sql"
	"log/slog"
	"time"

	"example.test/monolith/internal/clients/notifyclient"
	"example.test/monolith/internal/service/catalogsvc"
	"example.test/monolith/pkg/money"
)

// SessionReaper deletes expired sessions.
type SessionReaper struct {
	db    *sql.DB
	every time.Duration
	log   *slog.Logger
}

// NewSessionReaper returns the reaper.
func NewSessionReaper(db *sql.DB, log *slog.Logger) *SessionReaper {
	return &SessionReaper{db: db, every: 10 * time.Minute, log: log}
}

// Run reaps until ctx is done.
func (r *SessionReaper) Run(ctx context.Context) {
	for ctx.Err() == nil {
		res, err := r.db.ExecContext(ctx, `DELETE FROM sessions WHERE last_seen < now() - interval '30 days'`) // OK
		if err != nil {
			r.log.Warn("session reap failed", "err", err)
		} else if n, _ := res.RowsAffected(); n > 0 {
			r.log.Info("sessions reaped", "count", n)
		}
		time.Sleep(r.every) // OK
	}
}

// CacheWarmer keeps the hottest products in cache.
type CacheWarmer struct {
	db    *sql.DB
	svc   *catalogsvc.Service
	every time.Duration
	log   *slog.Logger
}

// NewCacheWarmer returns the warmer.
func NewCacheWarmer(db *sql.DB, svc *catalogsvc.Service, log *slog.Logger) *CacheWarmer {
	return &CacheWarmer{db: db, svc: svc, every: 5 * time.Minute, log: log}
}

// Run warms the cache forever; it is started once from main and lives as long as the process.
func (w *CacheWarmer) Run(ctx context.Context) {
	for {
		w.warm(ctx)
		select {
		case <-ctx.Done():
			return
		case <-time.After(w.every):
		}
	}
}

func (w *CacheWarmer) warm(ctx context.Context) {
	rows, err := w.db.QueryContext(ctx, `SELECT sku FROM product_views_hourly ORDER BY views DESC LIMIT 200`)
	if err != nil {
		w.log.Warn("warm: top products", "err", err)
		return
	}
	defer rows.Close()
	for rows.Next() {
		var sku string
		if rows.Scan(&sku) == nil {
			if _, err := w.svc.Product(ctx, sku); err != nil { // OK
				w.log.Debug("warm: product", "sku", sku, "err", err)
			}
		}
	}
}

// ReminderJob reminds accounts about overdue invoices once a day.
type ReminderJob struct {
	db     *sql.DB
	notify *notifyclient.Client
	log    *slog.Logger
}

// NewReminderJob returns the job.
func NewReminderJob(db *sql.DB, notify *notifyclient.Client, log *slog.Logger) *ReminderJob {
	return &ReminderJob{db: db, notify: notify, log: log}
}

// Run sends reminders every day at about 09:00 UTC until ctx is done.
func (j *ReminderJob) Run(ctx context.Context) {
	for {
		now := time.Now().UTC()
		next := time.Date(now.Year(), now.Month(), now.Day(), 9, 0, 0, 0, time.UTC)
		if !next.After(now) {
			next = next.Add(24 * time.Hour)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Until(next)):
		}
		if err := j.tick(ctx); err != nil {
			j.log.Warn("reminders failed", "err", err)
		}
	}
}

func (j *ReminderJob) tick(ctx context.Context) error {
	qctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	rows, err := j.db.QueryContext(qctx,
		`SELECT account_id, id, amount_minor, currency FROM invoices WHERE status = 'open' AND due_at < now() - interval '7 days'`)
	if err != nil {
		return err
	}
	type overdue struct {
		account, invoice, currency string
		amount                     int64
	}
	var list []overdue
	for rows.Next() {
		var o overdue
		if err := rows.Scan(&o.account, &o.invoice, &o.amount, &o.currency); err != nil {
			rows.Close()
			return err
		}
		list = append(list, o)
	}
	rows.Close()
	for _, o := range list {
		if _, err := j.notify.Send(ctx, o.account, "invoice_overdue", map[string]string{
			"invoice": o.invoice, "amount": money.Format(o.amount, o.currency),
		}); err != nil {
			j.log.Warn("reminder not sent", "invoice", o.invoice, "err", err)
		}
	}
	return nil
}
