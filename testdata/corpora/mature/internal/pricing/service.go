// Package pricing implements pricing.v1.PricingService with connect-go.
package pricing

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"connectrpc.com/connect"

	pricingv1 "example.test/mature/gen/pricing/v1"
	"example.test/mature/gen/pricing/v1/pricingv1connect"
)

const baseCurrency = "EUR"

// baselineCSV is the list price of SKUs that have no row yet; it ships with
// the binary so a fresh database still answers.
const baselineCSV = `sku,unit_price_cents
SKU-STARTER-KIT,1999
SKU-GIFT-CARD,2500
`

var baseline map[string]int64

func init() {
	var err error
	baseline, err = parseBaseline(context.Background(), strings.NewReader(baselineCSV)) // OK
	if err != nil {
		panic(fmt.Sprintf("pricing: embedded baseline: %v", err))
	}
}

func parseBaseline(ctx context.Context, r io.Reader) (map[string]int64, error) {
	out := map[string]int64{}
	sc := bufio.NewScanner(r)
	for line := 0; sc.Scan(); line++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if line == 0 || strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		sku, cents, ok := strings.Cut(sc.Text(), ",")
		if !ok {
			return nil, fmt.Errorf("line %d: want sku,cents", line+1)
		}
		n, err := strconv.ParseInt(cents, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line+1, err)
		}
		out[sku] = n
	}
	return out, sc.Err()
}

// Service implements pricingv1connect.PricingServiceHandler.
type Service struct {
	db     *sql.DB
	rates  *RateCache
	quotes *QuoteLog
	feed   *Feed
	log    *slog.Logger
}

var _ pricingv1connect.PricingServiceHandler = (*Service)(nil)

// NewService returns a Service.
func NewService(db *sql.DB, rates *RateCache, quotes *QuoteLog, feed *Feed, log *slog.Logger) *Service {
	return &Service{db: db, rates: rates, quotes: quotes, feed: feed, log: log}
}

// GetPrice returns the unit price of a SKU in the requested currency.
func (s *Service) GetPrice(ctx context.Context, req *connect.Request[pricingv1.GetPriceRequest]) (*connect.Response[pricingv1.GetPriceResponse], error) {
	sku := req.Msg.GetSku()
	if sku == "" {
		return nil, connect.NewError(connect.CodeInvalidArgument, errors.New("sku is required"))
	}
	currency := strings.ToUpper(req.Msg.GetCurrency())
	if currency == "" {
		currency = baseCurrency
	}
	var cents int64
	err := s.db.QueryRowContext(ctx, `SELECT unit_price_cents FROM prices WHERE sku = $1`, sku).Scan(&cents) // OK
	switch {
	case errors.Is(err, sql.ErrNoRows):
		b, ok := baseline[sku]
		if !ok {
			return nil, connect.NewError(connect.CodeNotFound, fmt.Errorf("no price for %q", sku))
		}
		cents = b
	case err != nil:
		return nil, connect.NewError(connect.CodeInternal, err)
	}
	converted, err := s.convert(cents, currency) // BUG: ctxbackground
	if err != nil {
		return nil, connect.NewError(connect.CodeUnavailable, err)
	}

	// Finance's margin report needs every quote, including those whose caller
	// hung up before the answer; one insert gets half a second.
	detached := context.WithoutCancel(ctx) // OK
	qctx, cancel := context.WithDeadline(detached, time.Now().Add(500*time.Millisecond))
	go func() {
		defer cancel()
		if err := s.quotes.Record(qctx, sku, converted, currency); err != nil {
			s.log.WarnContext(qctx, "quote not recorded", "sku", sku, "err", err)
		}
	}()

	resp := connect.NewResponse(&pricingv1.GetPriceResponse{UnitPriceCents: converted, Currency: currency})
	resp.Header().Set("Cache-Control", "max-age=30")
	return resp, nil
}

func (s *Service) convert(cents int64, currency string) (int64, error) {
	if currency == baseCurrency {
		return cents, nil
	}
	rate, err := s.rates.Rate(context.TODO(), currency)
	if err != nil {
		return 0, fmt.Errorf("rate %s: %w", currency, err)
	}
	return int64(math.Round(float64(cents) * rate)), nil
}

// WatchPrices streams base-currency price changes of the requested SKUs.
func (s *Service) WatchPrices(ctx context.Context, req *connect.Request[pricingv1.WatchPricesRequest], stream *connect.ServerStream[pricingv1.PriceUpdate]) error {
	updates, unsubscribe := s.feed.Subscribe(req.Msg.GetSkus())
	defer unsubscribe()
	for {
		select {
		case <-ctx.Done():
			return nil
		case u, ok := <-updates:
			if !ok {
				return connect.NewError(connect.CodeUnavailable, errors.New("price feed closed"))
			}
			if err := stream.Send(&pricingv1.PriceUpdate{Sku: u.SKU, UnitPriceCents: u.Cents}); err != nil {
				return err
			}
		}
	}
}

// RateCache caches exchange rates from the fx_rates table.
type RateCache struct {
	db  *sql.DB
	ttl time.Duration
	log *slog.Logger

	mu      sync.RWMutex
	rates   map[string]float64
	fetched time.Time
}

// NewRateCache returns an empty cache whose entries live for ttl.
func NewRateCache(db *sql.DB, ttl time.Duration, log *slog.Logger) *RateCache {
	return &RateCache{db: db, ttl: ttl, log: log, rates: map[string]float64{}}
}

// Rate returns the EUR->currency rate.
func (c *RateCache) Rate(ctx context.Context, currency string) (float64, error) {
	c.mu.RLock()
	r, ok := c.rates[currency]
	fresh := time.Since(c.fetched) < c.ttl
	c.mu.RUnlock()
	if ok && fresh {
		return r, nil
	}
	if err := c.refresh(ctx); err != nil {
		return 0, err
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	if r, ok := c.rates[currency]; ok {
		return r, nil
	}
	return 0, fmt.Errorf("unknown currency %q", currency)
}

func (c *RateCache) refresh(ctx context.Context) error {
	rows, err := c.db.QueryContext(ctx, `SELECT currency, rate FROM fx_rates`)
	if err != nil {
		return err
	}
	defer rows.Close()
	rates := map[string]float64{}
	for rows.Next() {
		var cur string
		var rate float64
		if err := rows.Scan(&cur, &rate); err != nil {
			return err
		}
		rates[cur] = rate
	}
	if err := rows.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	c.rates, c.fetched = rates, time.Now()
	c.mu.Unlock()
	return nil
}

// Run keeps the cache warm until ctx is done; pricingd starts it.
func (c *RateCache) Run(ctx context.Context) {
	t := time.NewTicker(c.ttl / 2)
	defer t.Stop()
	for {
		rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		if err := c.refresh(rctx); err != nil {
			c.log.Warn("fx refresh failed", "err", err)
		}
		cancel()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// QuoteLog appends served quotes to the quotes table.
type QuoteLog struct{ db *sql.DB }

// NewQuoteLog returns a QuoteLog on db.
func NewQuoteLog(db *sql.DB) *QuoteLog { return &QuoteLog{db: db} }

// Record appends one quote.
func (q *QuoteLog) Record(ctx context.Context, sku string, cents int64, currency string) error {
	_, err := q.db.ExecContext(ctx, `INSERT INTO quotes (sku, unit_price_cents, currency) VALUES ($1, $2, $3)`, sku, cents, currency)
	return err
}
