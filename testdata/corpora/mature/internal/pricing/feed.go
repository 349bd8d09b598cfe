package pricing

import (
	"context"
	"database/sql"
	"log/slog"
	"sync"
	"time"
)

// Update is a base-currency price change.
type Update struct {
	SKU   string
	Cents int64
}

// Feed polls the prices table for changes and fans them out to watchers.
type Feed struct {
	db  *sql.DB
	log *slog.Logger

	mu    sync.Mutex
	subs  map[chan Update]map[string]bool
	since time.Time
}

// NewFeed returns a Feed that reports changes made after it was created.
func NewFeed(db *sql.DB, log *slog.Logger) *Feed {
	return &Feed{db: db, log: log, subs: map[chan Update]map[string]bool{}, since: time.Now()}
}

// Subscribe returns the updates of skus and a func that ends the subscription.
func (f *Feed) Subscribe(skus []string) (<-chan Update, func()) {
	ch := make(chan Update, 32)
	want := map[string]bool{}
	for _, s := range skus {
		want[s] = true
	}
	f.mu.Lock()
	f.subs[ch] = want
	f.mu.Unlock()
	return ch, func() {
		f.mu.Lock()
		delete(f.subs, ch)
		f.mu.Unlock()
	}
}

// Run polls every interval until ctx is done; pricingd starts it.
func (f *Feed) Run(ctx context.Context, interval time.Duration) {
	for {
		pctx, cancel := context.WithTimeout(ctx, interval)
		if err := f.poll(pctx); err != nil {
			f.log.Warn("price feed poll failed", "err", err)
		}
		cancel()
		select {
		case <-ctx.Done():
			return
		case <-time.After(interval):
		}
	}
}

func (f *Feed) poll(ctx context.Context) error {
	rows, err := f.db.QueryContext(ctx, `SELECT sku, unit_price_cents, updated_at FROM prices WHERE updated_at > $1 ORDER BY updated_at`, f.since)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var u Update
		var at time.Time
		if err := rows.Scan(&u.SKU, &u.Cents, &at); err != nil {
			return err
		}
		f.since = at
		f.mu.Lock()
		for ch, want := range f.subs {
			if want[u.SKU] {
				select {
				case ch <- u:
				default:
				}
			}
		}
		f.mu.Unlock()
	}
	return rows.Err()
}
